import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Signed XSRF tokens (docs/decisions/0048-cookieless-anonymous-pages.md). A token is
 * `<random>.<mac>`: 18 random bytes and HMAC-SHA256(site secret, binding + random), both
 * base64url. The binding is the session cookie the browser sends, or nothing for a visitor: a
 * token made for one session does not verify with another, and nobody without the site's secret
 * can make one, so a cookie planted from a sibling subdomain (with a matching form field) does not
 * pass for a signed-in member. Verifying recomputes the MAC; nothing is stored.
 */

/** The name of the secret in site_secrets. */
export const XSRF_SECRET_NAME = "xsrf_hmac";

const TOKEN_SHAPE = /^([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{43})$/;

/** What a token is bound to: the session cookie's value, or null for a visitor without one. */
export type XsrfBinding = string | null;

function mac(secret: string, binding: XsrfBinding, random: string): string {
  // The prefix keeps a visitor's binding apart from any session token's.
  const bound = binding === null ? "visitor" : `session:${binding}`;
  return createHmac("sha256", secret).update(`xsrf\n${bound}\n${random}`).digest("base64url");
}

export function makeXsrfToken(secret: string, binding: XsrfBinding): string {
  const random = randomBytes(18).toString("base64url");
  return `${random}.${mac(secret, binding, random)}`;
}

/** True when `token` was made by `makeXsrfToken` with this secret and this binding. */
export function isXsrfTokenValid(
  secret: string,
  binding: XsrfBinding,
  token: string | undefined,
): boolean {
  if (!token) return false;
  const match = TOKEN_SHAPE.exec(token);
  if (!match) return false;
  const expected = Buffer.from(mac(secret, binding, match[1]!));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Compares two strings in constant time (for the echoed token against the cookie's). */
export function sameToken(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
