import type { IncomingMessage, ServerResponse } from "node:http";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { Events, OAuth2Server } from "oauth2-mock-server";

/** Claims of the person the mock provider signs in next (sub is the provider's user id). */
export interface MockUserClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

/** Changes to the next code-flow token response, as a mixed-up or malicious provider would send. */
export interface TokenTamper {
  /** Claims set on the ID token (`undefined` removes one), e.g. another `aud` or `azp`. */
  idToken?: Record<string, unknown>;
  /** The client the access token is issued to, instead of the one asking. */
  accessTokenClient?: string;
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
    audience: string | string[],
    claims: MockUserClaims & Record<string, unknown>,
    expiresIn?: number,
  ): Promise<string>;
  /**
   * An access token issued to `clientId` for the current user, as a mobile app would receive it;
   * the provider's introspection endpoint names that client for it (RFC 7662 `client_id`).
   */
  accessToken(clientId: string): Promise<string>;
  /** Alters the next token response of the code flow. */
  tamperNextTokenResponse(tamper: TokenTamper): void;
  /** Makes the next token request fail, as a provider that refuses the code would. */
  failNextTokenRequest(): void;
  /** How many introspection requests the provider has answered. */
  introspections(): number;
  close(): Promise<void>;
}

export const DEFAULT_CLIENTS = { google: "test-google-client", facebook: "test-facebook-client" };
const CLIENT_SECRETS = { google: "test-google-secret", facebook: "test-facebook-secret" };

/** Where the mock answers RFC 7662 introspection (the library's own /introspect always says active). */
const INTROSPECTION_PATH = "/introspection";

/** The client a request authenticated as: HTTP Basic, or client_id and client_secret in the form. */
function clientCredentials(req: IncomingMessage & { body?: unknown }) {
  const header = req.headers.authorization ?? "";
  if (header.startsWith("Basic ")) {
    const [id = "", secret = ""] = Buffer.from(header.slice(6), "base64")
      .toString("utf8")
      .split(":")
      .map(decodeURIComponent);
    return { id, secret };
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  return { id: String(body.client_id ?? ""), secret: String(body.client_secret ?? "") };
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/**
 * An OpenID Connect provider on loopback (oauth2-mock-server) with real keys, discovery, PKCE and
 * nonce support, standing in for Google and Facebook. Access tokens name the client they were
 * issued to (`client_id`), and RFC 7662 introspection, advertised in discovery like a real
 * provider's, tells the site whose token it holds.
 */
export async function startOidcProvider(): Promise<OidcProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const issuer = server.issuer.url!;
  let user: MockUserClaims = { sub: "mock-user-1" };
  let tamper: TokenTamper | null = null;
  let introspections = 0;
  /** client id → secret of every client this provider knows (the site's, in tests). */
  const clients = new Map<string, string>([
    [DEFAULT_CLIENTS.google, CLIENT_SECRETS.google],
    [DEFAULT_CLIENTS.facebook, CLIENT_SECRETS.facebook],
  ]);

  server.service.on(Events.BeforeWellKnownOpenIdConfiguration, (response) => {
    (response.body as Record<string, unknown>).introspection_endpoint =
      `${issuer}${INTROSPECTION_PATH}`;
  });

  server.service.on(Events.BeforeTokenSigning, (token, req) => {
    Object.assign(token.payload, user);
    // The library sets `aud` on ID tokens only; the other token of a response is the access token.
    if ("aud" in token.payload) {
      if (tamper?.idToken) {
        for (const [key, value] of Object.entries(tamper.idToken)) {
          if (value === undefined) delete token.payload[key];
          else token.payload[key] = value;
        }
      }
    } else {
      token.payload.client_id = tamper?.accessTokenClient ?? clientCredentials(req).id;
    }
  });
  server.service.on(Events.BeforeResponse, () => {
    tamper = null;
  });
  server.service.on(Events.BeforeUserinfo, (response) => {
    response.body = { ...user };
  });

  const keys = createLocalJWKSet({ keys: server.issuer.keys.toJSON() } as JSONWebKeySet);
  server.service.addRoute("POST", INTROSPECTION_PATH, async (req, res) => {
    introspections += 1;
    const caller = clientCredentials(req);
    if (!caller.id || clients.get(caller.id) !== caller.secret) {
      sendJson(res, 401, { error: "invalid_client" });
      return;
    }
    const token = String(((req as { body?: Record<string, unknown> }).body ?? {}).token ?? "");
    try {
      const { payload } = await jwtVerify(token, keys, { issuer });
      // Only access tokens carry client_id; an ID token is not an access token.
      if (typeof payload.client_id !== "string") throw new Error("not an access token");
      sendJson(res, 200, {
        active: true,
        client_id: payload.client_id,
        sub: payload.sub,
        scope: payload.scope,
        exp: payload.exp,
        iat: payload.iat,
        iss: payload.iss,
        token_type: "Bearer",
      });
    } catch {
      sendJson(res, 200, { active: false });
    }
  });

  return {
    issuer,
    env(requested = DEFAULT_CLIENTS) {
      const google = requested.google ?? DEFAULT_CLIENTS.google;
      const facebook = requested.facebook ?? DEFAULT_CLIENTS.facebook;
      clients.set(google, CLIENT_SECRETS.google);
      clients.set(facebook, CLIENT_SECRETS.facebook);
      return {
        GOOGLE_CLIENT_ID: google,
        GOOGLE_CLIENT_SECRET: CLIENT_SECRETS.google,
        GOOGLE_ISSUER: issuer,
        FACEBOOK_CLIENT_ID: facebook,
        FACEBOOK_CLIENT_SECRET: CLIENT_SECRETS.facebook,
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
    accessToken(clientId) {
      return server.issuer.buildToken({
        scopesOrTransform: (_header, payload) =>
          Object.assign(payload, { sub: user.sub, scope: "openid email", client_id: clientId }),
      });
    },
    tamperNextTokenResponse(next) {
      tamper = next;
    },
    failNextTokenRequest() {
      server.service.once(Events.BeforeResponse, (response) => {
        response.body = { error: "invalid_grant" };
        response.statusCode = 400;
      });
    },
    introspections: () => introspections,
    close: () => server.stop(),
  };
}
