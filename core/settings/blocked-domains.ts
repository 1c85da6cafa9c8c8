import type { DbOrTx } from "../../db/index.ts";
import { ValidationError } from "../errors.ts";

/**
 * Blocked link domains (migration 013, `blocked_domains`): administrators keep a list, and a
 * submission or an edit whose links lead to one of them, or to a subdomain of one, is refused on
 * the field that carries the link. The one check every writer of posts calls.
 */

export const BLOCKED_DOMAIN_MESSAGES = {
  invalid: "Please enter a domain name such as example.com.",
  tooLong: "A domain name can be at most 253 characters.",
} as const;

/** "Links to example.com are not allowed on this site." */
export function linkRefusedMessage(domain: string): string {
  return `Links to ${domain} are not allowed on this site.`;
}

/** A DNS label in ASCII (an internationalised one is already xn--… here). */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The host a link leads to, in ASCII lower case without a trailing dot (the URL parser turns an
 * internationalised name into its xn-- form), or null when the text is no http(s) link to a named
 * host.
 */
export function linkHost(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname.replace(/\.$/, "");
  return host && !host.startsWith("[") ? host : null;
}

/**
 * What an administrator typed, as the list keeps it: lower case, no scheme, path, port or
 * "www.", internationalised names in ASCII. "https://www.Example.COM/deals" is "example.com";
 * "bücher.de" is "xn--bcher-kva.de". Null when it is not a domain name of two labels or more.
 */
export function normaliseDomain(input: string): string | null {
  // "*.example.com" says what an entry means anyway: the domain and its subdomains.
  const text = input.trim().replace(/^\*\./, "");
  if (!text || /\s/.test(text)) return null;
  const host = linkHost(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  if (!host) return null;
  const domain = host.replace(/^www\./, "");
  if (domain.length > 253) return null;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  // An IPv4 address is not a domain name.
  if (labels.every((label) => /^\d+$/.test(label))) return null;
  return domain;
}

/** The domains whose entry would cover `host`: itself and each parent of two labels or more. */
export function coveringDomains(host: string): string[] {
  const labels = host.split(".");
  const domains: string[] = [];
  for (let i = 0; i + 2 <= labels.length; i++) domains.push(labels.slice(i).join("."));
  return domains;
}

/** The links (href values) of an HTML fragment as the sanitiser writes it. */
export function linksInHtml(html: string): string[] {
  const links: string[] = [];
  for (const match of html.matchAll(/<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const value = (match[1] ?? match[2] ?? "").replace(/&amp;/g, "&");
    if (value) links.push(value);
  }
  return links;
}

/** The blocked domain covering `host`, if one does (the longest entry, when several do). */
async function blockedDomainOf(db: DbOrTx, hosts: string[]): Promise<Map<string, string>> {
  const candidates = [...new Set(hosts.flatMap(coveringDomains))];
  if (!candidates.length) return new Map();
  const rows = await db
    .selectFrom("blocked_domains")
    .select("domain")
    .where("domain", "in", candidates)
    .execute();
  const blocked = new Set(rows.map((row) => row.domain));
  const found = new Map<string, string>();
  for (const host of hosts) {
    const domain = coveringDomains(host).find((candidate) => blocked.has(candidate));
    if (domain) found.set(host, domain);
  }
  return found;
}

/**
 * Refuses (422) links to blocked domains: `fields` maps each form field to the links it carries
 * (a deal's link, its image link, the links inside its description). One query for all of them;
 * each refused field gets "Links to <domain> are not allowed on this site."
 */
export async function assertLinksAllowed(
  db: DbOrTx,
  fields: Record<string, readonly (string | null | undefined)[]>,
): Promise<void> {
  const hostsByField = Object.entries(fields).map(
    ([field, links]) =>
      [field, links.flatMap((link) => (link ? [linkHost(link)] : [])).filter(Boolean)] as [
        string,
        string[],
      ],
  );
  const blocked = await blockedDomainOf(
    db,
    hostsByField.flatMap(([, hosts]) => hosts),
  );
  if (!blocked.size) return;
  const errors: Record<string, string> = {};
  for (const [field, hosts] of hostsByField) {
    const domain = hosts.map((host) => blocked.get(host)).find(Boolean);
    if (domain) errors[field] = linkRefusedMessage(domain);
  }
  throw new ValidationError(errors);
}

/** Refuses (422 on `field`) one link to a blocked domain: `assertLinksAllowed` for one field. */
export function assertLinkAllowed(
  db: DbOrTx,
  url: string | null | undefined,
  field = "link",
): Promise<void> {
  return assertLinksAllowed(db, { [field]: [url] });
}

// The list, as the settings page keeps it -------------------------------------------------------

export function listBlockedDomains(db: DbOrTx) {
  return db
    .selectFrom("blocked_domains")
    .leftJoin("users", "users.id", "blocked_domains.created_by")
    .select([
      "blocked_domains.domain",
      "blocked_domains.created_at",
      "users.name as created_by_name",
    ])
    .orderBy("blocked_domains.domain")
    .execute();
}

/** Adds a domain; false when the list already had it. */
export async function insertBlockedDomain(
  db: DbOrTx,
  domain: string,
  createdBy: number | null,
): Promise<boolean> {
  const inserted = await db
    .insertInto("blocked_domains")
    .values({ domain, created_by: createdBy })
    .onConflict((oc) => oc.column("domain").doNothing())
    .returning("domain")
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Removes a domain; false when the list did not have it. */
export async function deleteBlockedDomain(db: DbOrTx, domain: string): Promise<boolean> {
  const result = await db
    .deleteFrom("blocked_domains")
    .where("domain", "=", domain)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
