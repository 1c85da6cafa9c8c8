import { disposableEmailBlocklistSet } from "disposable-email-domains-js";

/**
 * Addresses at disposable-mail domains (docs/decisions/0085-sign-up-defences.md). The list is the
 * npm package disposable-email-domains-js: data shipped in the package, read from disk, never
 * fetched; it is brought up to date by `npm update`. Server-only: the list is too big for the
 * browser's scripts, so the form learns of a refusal from the server's answer, in the words of
 * ACCOUNT_MESSAGES.disposableEmail.
 */

let domains: Set<string> | undefined;

/**
 * True when `address`'s domain, or any domain it is under, is on the list: x.mailinator.com is
 * refused as mailinator.com is. Case and a trailing dot do not matter.
 */
export function isDisposableEmail(address: string): boolean {
  const at = address.lastIndexOf("@");
  if (at < 0) return false;
  const domain = address
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, "");
  domains ??= disposableEmailBlocklistSet();
  const labels = domain.split(".");
  // Every parent domain, down to (not including) the top-level one.
  for (let start = 0; start < labels.length - 1; start++) {
    if (domains.has(labels.slice(start).join("."))) return true;
  }
  return false;
}
