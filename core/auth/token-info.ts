import { createHmac } from "node:crypto";

/**
 * Whom a provider says a token was issued to. A token is only good for signing in here when it was
 * issued to this site's own client: a token another app obtained from the same provider (for the
 * same person) must not open this site's account (docs/decisions/0026-social-sign-in.md).
 */

/** The provider could not vouch for the user (bad token, cancelled consent, provider down). */
export class OAuthFailure extends Error {}

function audiences(aud: unknown): string[] | null {
  if (typeof aud === "string") return [aud];
  if (Array.isArray(aud) && aud.length > 0 && aud.every((a) => typeof a === "string")) {
    return aud as string[];
  }
  return null;
}

/**
 * The audience rules of OpenID Connect Core 3.1.3.7, made strict: `aud` must name this client
 * (alone, or among several only with an `azp`), and an `azp`, when present, must be this client.
 */
export function assertIssuedToClient(
  claims: { aud?: unknown; azp?: unknown },
  clientId: string,
): void {
  const aud = audiences(claims.aud);
  if (!aud?.includes(clientId)) throw new OAuthFailure("the token is not addressed to this site");
  if (aud.length > 1 && claims.azp === undefined) {
    throw new OAuthFailure("the token names several audiences and no authorized party");
  }
  if (claims.azp !== undefined && claims.azp !== clientId) {
    throw new OAuthFailure("the token was issued to another client (azp)");
  }
}

/** What a token-info answer established: the token is this client's, for this subject. */
export interface TokenOwner {
  subject: string;
  /** Identity claims the answer carried (Google's tokeninfo has the address), to complete. */
  claims: Record<string, unknown>;
}

function subjectOf(value: unknown): string {
  if ((typeof value === "string" && value) || typeof value === "number") return String(value);
  throw new OAuthFailure("the token-info answer names no user");
}

/** RFC 7662 introspection: active, and issued to this client (`client_id`). */
export function ownerFromIntrospection(
  answer: Record<string, unknown>,
  clientId: string,
  now: Date,
): TokenOwner {
  if (answer.active !== true) throw new OAuthFailure("the provider says the token is not active");
  if (answer.client_id !== clientId) {
    throw new OAuthFailure("the token was issued to another client (client_id)");
  }
  if (typeof answer.exp === "number" && answer.exp * 1000 <= now.getTime()) {
    throw new OAuthFailure("the token has expired");
  }
  return { subject: subjectOf(answer.sub), claims: {} };
}

/**
 * Google's tokeninfo answer for an access token: `aud` (and `azp` when present) must be this
 * client, and the token must not have expired.
 */
export function ownerFromGoogleTokenInfo(
  answer: Record<string, unknown>,
  clientId: string,
): TokenOwner {
  if (typeof answer.error === "string" || typeof answer.error_description === "string") {
    throw new OAuthFailure("Google does not know the token");
  }
  if (answer.aud !== clientId) throw new OAuthFailure("the token was issued to another client");
  if (answer.azp !== undefined && answer.azp !== clientId) {
    throw new OAuthFailure("the token was issued to another client (azp)");
  }
  if (!(Number(answer.expires_in) > 0)) throw new OAuthFailure("the token has expired");
  const claims = Object.fromEntries(
    Object.entries({ email: answer.email, email_verified: answer.email_verified }).filter(
      ([, value]) => value !== undefined,
    ),
  );
  return { subject: subjectOf(answer.sub), claims };
}

/** Facebook's debug_token answer: valid, and for this app (`app_id`). */
export function ownerFromFacebookDebugToken(
  answer: Record<string, unknown>,
  clientId: string,
): TokenOwner {
  const data = answer.data;
  if (typeof data !== "object" || data === null) {
    throw new OAuthFailure("Facebook does not know the token");
  }
  const info = data as Record<string, unknown>;
  if (info.is_valid !== true) throw new OAuthFailure("Facebook says the token is not valid");
  if (String(info.app_id) !== clientId) {
    throw new OAuthFailure("the token was issued to another app (app_id)");
  }
  return { subject: subjectOf(info.user_id), claims: {} };
}

export const GOOGLE_TOKENINFO_ENDPOINT = "https://oauth2.googleapis.com/tokeninfo";
export const FACEBOOK_GRAPH = "https://graph.facebook.com/v19.0";

const TIMEOUT_MS = 10_000;

async function getJson(url: URL): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    headers: { accept: "application/json" },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body: unknown = await response.json().catch(() => null);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new OAuthFailure(`the provider answered ${response.status} without a JSON object`);
  }
  return body as Record<string, unknown>;
}

export async function fetchGoogleTokenInfo(accessToken: string) {
  const url = new URL(GOOGLE_TOKENINFO_ENDPOINT);
  url.searchParams.set("access_token", accessToken);
  return getJson(url);
}

export async function fetchFacebookDebugToken(
  accessToken: string,
  app: { clientId: string; clientSecret: string },
) {
  const url = new URL(`${FACEBOOK_GRAPH}/debug_token`);
  url.searchParams.set("input_token", accessToken);
  url.searchParams.set("access_token", `${app.clientId}|${app.clientSecret}`);
  return getJson(url);
}

/** The person behind a Facebook user token, from the Graph API (Facebook has no userinfo). */
export async function fetchFacebookProfile(accessToken: string, clientSecret: string) {
  const url = new URL(`${FACEBOOK_GRAPH}/me`);
  url.searchParams.set("fields", "id,name,email,picture.type(large)");
  url.searchParams.set("access_token", accessToken);
  // Required when the app demands it, harmless otherwise.
  url.searchParams.set(
    "appsecret_proof",
    createHmac("sha256", clientSecret).update(accessToken).digest("hex"),
  );
  const profile = await getJson(url);
  const picture = (profile.picture as { data?: { url?: unknown } } | undefined)?.data?.url;
  // Facebook does not say whether it verified the address: it is treated as unverified.
  return { sub: profile.id, name: profile.name, email: profile.email, picture };
}
