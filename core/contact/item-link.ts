/**
 * The item of this site a contact message is about: a report of a user, a deal issue or a DMCA
 * notice usually pastes the item's address. The first address of this site (PUBLIC_URL's host, or
 * a bare path) that names a post, an educator post, a profile, a store or a category is kept as
 * the site path (`/post/<id>/<slug>`), so the console links to it on any host.
 */

/** The item addresses of the site (app/routes.ts), first segments and what follows them. */
const ITEM_PATH =
  /^\/(?:(?:post|educator)\/[A-Za-z0-9]{1,40}\/[^\s/?#<>"']{1,200}|profile\/\d{1,15}|(?:store|category)\/[a-z0-9][a-z0-9-]{0,199})(?=$|[/?#])/;

/** A web address with or without its scheme: host (with port) and path. */
const ADDRESS =
  /(?:https?:\/\/)?((?:[a-z0-9-]+\.)+[a-z0-9-]+|localhost)(?::\d{1,5})?(\/[^\s<>"'()]*)/gi;

/** A bare path of the site in running text: at the start or after a space or an opening mark. */
const BARE_PATH = /(?:^|[\s(<"'[])(\/(?:post|educator|profile|store|category)\/[^\s<>"')\]]*)/g;

/** Punctuation that ends a sentence rather than the address. */
const TRAILING = /[.,;:!?]+$/;

function siteHost(publicUrl: string): string {
  try {
    return new URL(publicUrl).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** The item path an address's path starts with, or "". */
export function itemPath(path: string): string {
  return ITEM_PATH.exec(path.replace(TRAILING, ""))?.[0] ?? "";
}

/** The first item of this site that `text` links to, as a site path; "" when there is none. */
export function findItemLink(text: string, publicUrl: string): string {
  const host = siteHost(publicUrl);
  if (host) {
    for (const match of text.matchAll(ADDRESS)) {
      if (match[1]!.toLowerCase().replace(/^www\./, "") !== host) continue;
      const found = itemPath(match[2]!);
      if (found) return found;
    }
  }
  for (const match of text.matchAll(BARE_PATH)) {
    const found = itemPath(match[1]!);
    if (found) return found;
  }
  return "";
}
