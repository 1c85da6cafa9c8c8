/**
 * Which addresses count as school or district addresses (docs/decisions/0041-verified-educators.md):
 * a domain under `.edu`, a US school district's `k12.<state>.us`, or a domain of the console's
 * list (the list's entry itself or any of its subdomains). Everything is compared label by label
 * from the right, so `edu.evil.com`, `x.edu.evil.com` or `k12.ca.us.evil.com` never pass.
 */

/** One DNS label: letters, digits and inner hyphens (IDN domains arrive as punycode, xn--…). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The domain of an address, lower-cased, or null when the address has no usable domain. */
export function domainOf(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 1) return null;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, "");
  return isHostName(domain) ? domain : null;
}

/** A host name of two labels or more, each a valid DNS label, at most 253 characters. */
export function isHostName(domain: string): boolean {
  if (domain.length < 3 || domain.length > 253) return false;
  const labels = domain.split(".");
  return labels.length >= 2 && labels.every((label) => LABEL.test(label));
}

/** The built-in rules, in words, as the page and the refusal list them. */
export const BUILT_IN_RULES = [".edu", "k12.<state>.us"] as const;

/** Why a domain is accepted: a built-in rule, or the list entry that covers it. */
export type SchoolDomainMatch = { rule: "edu" } | { rule: "k12" } | { rule: "list"; entry: string };

/** Whether `domain` is `entry` or one of its subdomains. */
function isWithin(domain: string, entry: string): boolean {
  return domain === entry || domain.endsWith(`.${entry}`);
}

/**
 * How `domain` (as `domainOf` answers it) counts as a school domain, or null. `.edu` needs a name
 * before it (`school.edu`); `k12.<state>.us` is the two-letter state code's district tree.
 */
export function matchSchoolDomain(
  domain: string,
  listed: readonly string[],
): SchoolDomainMatch | null {
  if (!isHostName(domain)) return null;
  const labels = domain.split(".");
  const n = labels.length;
  if (labels[n - 1] === "edu" && n >= 2) return { rule: "edu" };
  if (
    n >= 3 &&
    labels[n - 1] === "us" &&
    /^[a-z]{2}$/.test(labels[n - 2]!) &&
    labels[n - 3] === "k12"
  )
    return { rule: "k12" };
  const entry = listed.find((item) => isWithin(domain, item));
  return entry ? { rule: "list", entry } : null;
}

/**
 * Free mail providers: nobody's school domain, so the console's list refuses them (a slip there
 * would let anyone verify themselves).
 */
export const FREE_MAIL_DOMAINS = [
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "outlook.com",
  "hotmail.com",
  "live.com",
  "msn.com",
  "icloud.com",
  "me.com",
  "aol.com",
  "proton.me",
  "protonmail.com",
  "gmx.com",
  "mail.com",
  "yandex.com",
  "zoho.com",
] as const;

/**
 * A list entry as the console typed it, made plain: lower case, without a leading "@", "*." or
 * "." and a trailing dot. Null when what is left is not a host name.
 */
export function normaliseDomainEntry(value: string): string | null {
  const domain = value
    .trim()
    .toLowerCase()
    .replace(/^@|^\*\.|^\./, "")
    .replace(/\.$/, "");
  return isHostName(domain) ? domain : null;
}
