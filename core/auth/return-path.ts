/**
 * The return path of "sign in, then go back" (`/login?next=/post/…`, record 0035): the one check
 * every door uses (the login and register pages, `POST /api/signin`, Google and Facebook
 * sign-in), so that no link can make the site send a visitor to another site after signing in.
 *
 * Only a path on this site is kept; anything else (another origin, a scheme such as
 * `javascript:`, a protocol-relative `//host`, backslashes that browsers read as slashes, control
 * characters browsers strip, and the same tricks percent-encoded) gives the fallback `/`.
 * Pages that make no sense to come back to (the sign-in pages themselves, logout, the JSON API,
 * the OAuth redirects) also give `/`.
 */

export const DEFAULT_RETURN_PATH = "/";

/** A return path longer than this is not a link anyone followed in earnest. */
export const MAX_RETURN_PATH_LENGTH = 2048;

/** Paths never returned to: they would loop, sign the visitor out, or answer JSON. */
const NO_RETURN_PREFIXES = [
  "/login",
  "/register",
  "/logout",
  "/forgotpassword",
  "/reset-password",
  "/api",
  "/auth",
];

/** Any origin serves: only whether the result stays on it matters. */
const PROBE_ORIGIN = "http://return-path.invalid";

/** Characters no honest return path carries raw: control characters and backslashes. */
// eslint-disable-next-line no-control-regex
const RAW_UNSAFE = /[\u0000-\u001f\u007f\\]/;

/** A path that a browser, or a server decoding it, could read as `//host` or `/\host`. */
// eslint-disable-next-line no-control-regex
const HOST_LIKE = /^\/[\s\u0000-\u001f\u007f]*[/\\]/;

/** The same string with percent-escapes decoded, round after round (up to 3). */
function decodings(value: string): string[] {
  const forms = [value];
  let current = value;
  for (let round = 0; round < 3 && current.includes("%"); round++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      break; // a literal "%" (a search for "50%"): what was decoded so far is checked
    }
    forms.push(current);
  }
  return forms;
}

/** One leading slash and no second one (nor a backslash, nor whitespace before one). */
function startsLocal(value: string): boolean {
  return value.startsWith("/") && !HOST_LIKE.test(value);
}

/**
 * `raw` when it is a path on this site worth returning to, normalised (`/post/a/b?x=1#c`);
 * otherwise `/`. Accepts anything (a query value, a form field, a cookie): never throws.
 */
export function safeReturnPath(raw: unknown): string {
  if (typeof raw !== "string" || raw === "" || raw.length > MAX_RETURN_PATH_LENGTH) {
    return DEFAULT_RETURN_PATH;
  }
  if (RAW_UNSAFE.test(raw) || !decodings(raw).every(startsLocal)) return DEFAULT_RETURN_PATH;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return DEFAULT_RETURN_PATH;
  }
  if (url.origin !== PROBE_ORIGIN) return DEFAULT_RETURN_PATH;
  // Normalising can make a path host-like ("/.//evil.com" becomes "//evil.com"): checked again.
  const path = url.pathname + url.search + url.hash;
  if (!startsLocal(path)) return DEFAULT_RETURN_PATH;
  const pathname = url.pathname.toLowerCase();
  const noReturn = NO_RETURN_PREFIXES.some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
  return noReturn ? DEFAULT_RETURN_PATH : path;
}

/** The checked return path of a request's `?next=` (absent or hostile: `/`). */
export function returnPathOf(url: URL | string): string {
  const parsed = typeof url === "string" ? new URL(url, PROBE_ORIGIN) : url;
  return safeReturnPath(parsed.searchParams.get("next"));
}

/** `page?next=…` for a checked return path; the bare page when it is `/`. */
export function withReturnPath(page: string, next: string): string {
  const checked = safeReturnPath(next);
  return checked === DEFAULT_RETURN_PATH ? page : `${page}?next=${encodeURIComponent(checked)}`;
}

/** `/login?next=<this page>`: where a page that needs a signed-in visitor sends one who is not. */
export function loginRedirectFor(request: Request | { url: string }): string {
  const url = new URL(request.url, PROBE_ORIGIN);
  return withReturnPath("/login", url.pathname + url.search);
}
