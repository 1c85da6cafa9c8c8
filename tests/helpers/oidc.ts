import { Events, OAuth2Server } from "oauth2-mock-server";

/** Claims of the person the mock provider signs in next (sub is the provider's user id). */
export interface MockUserClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

export interface OidcProvider {
  /** The issuer URL, for GOOGLE_ISSUER / FACEBOOK_ISSUER. */
  issuer: string;
  /** Environment that points both providers of the site at this mock. */
  env(clients?: { google?: string; facebook?: string }): Record<string, string>;
  /** Who signs in from now on, in the code flow (ID token and userinfo) alike. */
  setUser(claims: MockUserClaims): void;
  /** An ID token signed by the provider's key, as a mobile app would receive it. */
  idToken(
    audience: string,
    claims: MockUserClaims & Record<string, unknown>,
    expiresIn?: number,
  ): Promise<string>;
  /** An access token the provider's userinfo endpoint answers for (with the current user). */
  accessToken(): Promise<string>;
  /** Makes the next token request fail, as a provider that refuses the code would. */
  failNextTokenRequest(): void;
  close(): Promise<void>;
}

export const DEFAULT_CLIENTS = { google: "test-google-client", facebook: "test-facebook-client" };

/**
 * An OpenID Connect provider on loopback (oauth2-mock-server) with real keys, discovery, PKCE and
 * nonce support, standing in for Google and Facebook.
 */
export async function startOidcProvider(): Promise<OidcProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const issuer = server.issuer.url!;
  let user: MockUserClaims = { sub: "mock-user-1" };

  server.service.on(Events.BeforeTokenSigning, (token) => {
    Object.assign(token.payload, user);
  });
  server.service.on(Events.BeforeUserinfo, (response) => {
    response.body = { ...user };
  });

  return {
    issuer,
    env(clients = DEFAULT_CLIENTS) {
      return {
        GOOGLE_CLIENT_ID: clients.google ?? DEFAULT_CLIENTS.google,
        GOOGLE_CLIENT_SECRET: "test-google-secret",
        GOOGLE_ISSUER: issuer,
        FACEBOOK_CLIENT_ID: clients.facebook ?? DEFAULT_CLIENTS.facebook,
        FACEBOOK_CLIENT_SECRET: "test-facebook-secret",
        FACEBOOK_ISSUER: issuer,
      };
    },
    setUser(claims) {
      user = { ...claims };
    },
    idToken(audience, claims, expiresIn = 3600) {
      return server.issuer.buildToken({
        expiresIn,
        scopesOrTransform: (_header, payload) => Object.assign(payload, claims, { aud: audience }),
      });
    },
    accessToken() {
      return server.issuer.buildToken({
        scopesOrTransform: (_header, payload) =>
          Object.assign(payload, { sub: user.sub, scope: "openid email" }),
      });
    },
    failNextTokenRequest() {
      server.service.once(Events.BeforeResponse, (response) => {
        response.body = { error: "invalid_grant" };
        response.statusCode = 400;
      });
    },
    close: () => server.stop(),
  };
}
