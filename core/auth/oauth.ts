import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import * as client from "openid-client";
import type { Config, OAuthProviderConfig } from "../../config/env.ts";
import { removeStoredImages } from "../media/images.ts";
import { copyImageLink, type CopiedImageLink } from "../media/outside-images.ts";
import {
  OAuthFailure,
  assertIssuedToClient,
  fetchFacebookDebugToken,
  fetchFacebookProfile,
  fetchGoogleTokenInfo,
  ownerFromFacebookDebugToken,
  ownerFromGoogleTokenInfo,
  ownerFromIntrospection,
  type TokenOwner,
} from "./token-info.ts";

export { OAuthFailure } from "./token-info.ts";

/** A new member's picture from the provider, copied before their account is written. */
export type ProviderPicture = CopiedImageLink;

/** A sign-up waits at most this long for the provider's picture; without it, it goes on without. */
const PICTURE_BUDGET_MS = 5_000;

/**
 * The provider's `picture` claim, copied once into the site's media as an avatar (512 px) through
 * the same guarded fetch as the images of posts (copyImageLink, core/media/outside-images.ts;
 * docs/decisions/0074-images-in-user-html.md), then `write` with it: viewers never load it from the
 * provider. A picture that cannot be copied is logged and left out (`url` null); when `write`
 * fails, the copy is removed again.
 */
export async function withProviderPicture<T>(
  deps: Parameters<typeof copyImageLink>[0],
  identity: Pick<ProviderIdentity, "provider" | "picture">,
  write: (picture: ProviderPicture) => Promise<T>,
): Promise<T> {
  const picture: ProviderPicture = identity.picture
    ? await copyImageLink(deps, identity.picture, "avatars", {
        maxSize: 512,
        limits: { budgetMs: PICTURE_BUDGET_MS },
      })
    : { url: null, stored: null, reason: null };
  if (picture.reason) {
    deps.log.info(
      `The ${identity.provider} picture of a new member was left out ` +
        `(${identity.picture!.slice(0, 200)}): ${picture.reason}.`,
    );
  }
  try {
    return await write(picture);
  } catch (error) {
    if (picture.stored) await removeStoredImages(deps, [picture.stored]);
    throw error;
  }
}

export type OAuthProvider = "google" | "facebook";

/** Who the provider says signed in, from a verified ID token or the provider's userinfo answer. */
export interface ProviderIdentity {
  provider: OAuthProvider;
  subject: string;
  email: string | null;
  /** True only when the provider vouches for the address (`email_verified`). */
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

/** What the browser must bring back to the callback: kept in an HttpOnly cookie meanwhile. */
export interface AuthorizationFlow {
  provider: OAuthProvider;
  state: string;
  codeVerifier: string;
  nonce: string;
}

/**
 * Facebook's discovery document describes its OpenID Connect tokens but names no token endpoint;
 * the code is exchanged at the Graph API instead. Only used when discovery leaves it out.
 */
const FACEBOOK_TOKEN_ENDPOINT = "https://graph.facebook.com/v19.0/oauth/access_token";

const SCOPE = "openid email profile";

function claimsToIdentity(
  provider: OAuthProvider,
  claims: Record<string, unknown>,
): ProviderIdentity {
  const subject = typeof claims.sub === "string" ? claims.sub : "";
  if (!subject) throw new OAuthFailure("the provider named no subject");
  const text = (value: unknown) =>
    typeof value === "string" && value.trim() ? value.trim() : null;
  const picture = text(claims.picture);
  return {
    provider,
    subject,
    email: text(claims.email)?.toLowerCase() ?? null,
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    name:
      text(claims.name) ??
      ([text(claims.given_name), text(claims.family_name)].filter(Boolean).join(" ") || null),
    // Only https: it is fetched once, at sign-up, and copied (withProviderPicture).
    picture: picture && /^https:\/\//i.test(picture) ? picture : null,
  };
}

/**
 * Google and Facebook sign-in with openid-client: the authorization-code flow with state, PKCE
 * and nonce for the web, and token verification for the mobile apps' /api/social_signin.
 * Providers come from configuration (issuer discovery), so tests point them at a local mock.
 */
export function createOAuthClients(config: Pick<Config, "oauth" | "publicUrl">) {
  const configurations = new Map<OAuthProvider, Promise<client.Configuration>>();
  const keySets = new Map<OAuthProvider, ReturnType<typeof createRemoteJWKSet>>();

  function providerConfig(provider: OAuthProvider): OAuthProviderConfig {
    const settings = config.oauth[provider];
    if (!settings) throw new OAuthFailure(`${provider} sign-in is not configured`);
    return settings;
  }

  async function discover(provider: OAuthProvider): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = providerConfig(provider);
    const issuerUrl = new URL(issuer);
    // Plain http is allowed only for a provider on this machine (the tests' mock).
    const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(issuerUrl.hostname);
    const options = loopback ? { execute: [client.allowInsecureRequests] } : undefined;
    let configuration = await client.discovery(
      issuerUrl,
      clientId,
      clientSecret,
      undefined,
      options,
    );
    const { supportsPKCE: _helper, ...metadata } = configuration.serverMetadata();
    if (!metadata.token_endpoint && provider === "facebook") {
      configuration = new client.Configuration(
        { ...metadata, token_endpoint: FACEBOOK_TOKEN_ENDPOINT },
        clientId,
        clientSecret,
      );
    }
    if (loopback) client.allowInsecureRequests(configuration);
    // Check the ID token's signature too, not only the TLS channel it came through.
    client.enableNonRepudiationChecks(configuration);
    return configuration;
  }

  function configuration(provider: OAuthProvider): Promise<client.Configuration> {
    let pending = configurations.get(provider);
    if (!pending) {
      pending = discover(provider);
      // A provider that was down is asked again next time.
      pending.catch(() => configurations.delete(provider));
      configurations.set(provider, pending);
    }
    return pending;
  }

  function redirectUri(provider: OAuthProvider) {
    return `${config.publicUrl}/auth/${provider}/callback`;
  }

  async function withIdentityFrom<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof OAuthFailure) throw error;
      throw new OAuthFailure(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Asks the provider whom an access token was issued to, and refuses it unless it is this site's
   * client: RFC 7662 introspection where the issuer offers it (the tests' provider), else Google's
   * tokeninfo or Facebook's debug_token.
   */
  async function ownerOfAccessToken(
    provider: OAuthProvider,
    accessToken: string,
  ): Promise<TokenOwner> {
    const settings = await configuration(provider);
    const { clientId, clientSecret } = providerConfig(provider);
    if (settings.serverMetadata().introspection_endpoint) {
      const answer = await client.tokenIntrospection(settings, accessToken);
      return ownerFromIntrospection(answer, clientId, new Date());
    }
    if (provider === "google") {
      return ownerFromGoogleTokenInfo(await fetchGoogleTokenInfo(accessToken), clientId);
    }
    return ownerFromFacebookDebugToken(
      await fetchFacebookDebugToken(accessToken, { clientId, clientSecret }),
      clientId,
    );
  }

  /** Name, address and picture of the subject, with an access token already known to be ours. */
  async function profileFor(
    provider: OAuthProvider,
    accessToken: string,
    subject: string,
  ): Promise<Record<string, unknown>> {
    const settings = await configuration(provider);
    if (settings.serverMetadata().userinfo_endpoint) {
      return { ...(await client.fetchUserInfo(settings, accessToken, subject)) };
    }
    if (provider === "facebook") {
      const profile = await fetchFacebookProfile(
        accessToken,
        providerConfig(provider).clientSecret,
      );
      if (String(profile.sub) !== subject)
        throw new OAuthFailure("the tokens name different users");
      return profile;
    }
    return {};
  }

  return {
    isAvailable(provider: OAuthProvider): boolean {
      return Boolean(config.oauth[provider]);
    },

    /** The provider's authorization URL and the secrets the callback must match. */
    async begin(provider: OAuthProvider): Promise<{ url: URL; flow: AuthorizationFlow }> {
      return withIdentityFrom(async () => {
        const settings = await configuration(provider);
        const flow: AuthorizationFlow = {
          provider,
          state: client.randomState(),
          codeVerifier: client.randomPKCECodeVerifier(),
          nonce: client.randomNonce(),
        };
        const url = client.buildAuthorizationUrl(settings, {
          redirect_uri: redirectUri(provider),
          scope: SCOPE,
          response_type: "code",
          code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
          code_challenge_method: "S256",
          state: flow.state,
          nonce: flow.nonce,
        });
        return { url, flow };
      });
    },

    /**
     * Checks the callback against the flow (state, PKCE, nonce), exchanges the code and reads the
     * ID token, which must be signed by the provider and addressed to this site's client alone
     * (`aud`, `azp`). Where it lacks the address, the access token, once the provider confirms it
     * is this client's, fetches the rest from userinfo for the same subject.
     */
    async complete(callbackUrl: URL, flow: AuthorizationFlow): Promise<ProviderIdentity> {
      return withIdentityFrom(async () => {
        const settings = await configuration(flow.provider);
        const tokens = await client.authorizationCodeGrant(
          settings,
          callbackUrl,
          {
            pkceCodeVerifier: flow.codeVerifier,
            expectedState: flow.state,
            expectedNonce: flow.nonce,
            idTokenExpected: true,
          },
          { redirect_uri: redirectUri(flow.provider) },
        );
        const idClaims = tokens.claims();
        if (!idClaims) throw new OAuthFailure("the provider sent no ID token");
        assertIssuedToClient(idClaims, providerConfig(flow.provider).clientId);
        const claims: Record<string, unknown> = { ...idClaims };
        if (!claims.email) {
          const owner = await ownerOfAccessToken(flow.provider, tokens.access_token);
          if (owner.subject !== claims.sub)
            throw new OAuthFailure("the tokens name different users");
          const more = await profileFor(flow.provider, tokens.access_token, owner.subject);
          for (const [key, value] of Object.entries(more)) claims[key] ??= value;
        }
        return claimsToIdentity(flow.provider, claims);
      });
    },

    /**
     * The identity behind a token a mobile app got from the provider. An ID token must be signed
     * by the provider's keys, issued by it, unexpired and addressed to this site's client alone;
     * an access token counts only when the provider's token-info answer names this client.
     */
    async verifyToken(
      provider: OAuthProvider,
      token: { idToken?: string; accessToken?: string },
    ): Promise<ProviderIdentity> {
      return withIdentityFrom(async () => {
        const settings = await configuration(provider);
        const metadata = settings.serverMetadata();
        const { clientId } = providerConfig(provider);
        if (token.idToken) {
          if (!metadata.jwks_uri) throw new OAuthFailure("the provider publishes no keys");
          let keys = keySets.get(provider);
          if (!keys) {
            keys = createRemoteJWKSet(new URL(metadata.jwks_uri));
            keySets.set(provider, keys);
          }
          const { payload } = await jwtVerify<JWTPayload>(token.idToken, keys, {
            issuer: metadata.issuer,
            audience: clientId,
            requiredClaims: ["sub", "exp", "iat"],
            clockTolerance: 30,
          });
          assertIssuedToClient(payload, clientId);
          return claimsToIdentity(provider, payload as Record<string, unknown>);
        }
        if (token.accessToken) {
          const owner = await ownerOfAccessToken(provider, token.accessToken);
          const profile = await profileFor(provider, token.accessToken, owner.subject);
          return claimsToIdentity(provider, { ...owner.claims, ...profile, sub: owner.subject });
        }
        throw new OAuthFailure("no token");
      });
    },
  };
}

export type OAuthClients = ReturnType<typeof createOAuthClients>;
