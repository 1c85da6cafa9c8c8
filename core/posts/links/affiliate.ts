/**
 * What a deal's link is, honestly: an affiliate link or not, the same link without tracking, and
 * where /go/{unique_id} sends a shopper (docs/decisions/0039-honest-links.md). Pure functions, no
 * database: the presenter, the /go route and the console's store form share them.
 */

/**
 * Query parameters that pay someone for the click: an affiliate network's or a shop's partner id.
 * Any of them makes a link an affiliate link, and the clean link drops them. Compared without case.
 *
 * - `tag`, `ascsubtag`: Amazon Associates
 * - `aff…` (aff, affid, aff_id, affiliate, affiliate_id, aff_sub…): generic affiliate programs
 * - `ref`, `ref_…` (ref_id, ref_src …), `refid`: referral programs
 * - `irclickid`, `irgwc`: Impact
 * - `clickid`, `clickref`: generic click ids (Partnerize and others)
 * - `awc`: Awin
 * - `ranmid`, `raneaid`, `ransiteid`: Rakuten Advertising
 * - `cjevent`, `cjdata`: CJ (Commission Junction)
 * - `sscid`: ShareASale
 * - `campid`, `customid`: eBay Partner Network
 */
const AFFILIATE_NAMES = new Set([
  "tag",
  "ascsubtag",
  "ref",
  "refid",
  "irclickid",
  "irgwc",
  "clickid",
  "clickref",
  "awc",
  "ranmid",
  "raneaid",
  "ransiteid",
  "cjevent",
  "cjdata",
  "sscid",
  "campid",
  "customid",
]);
const AFFILIATE_PREFIXES = ["aff", "ref_"];

/**
 * Query parameters that only track where a visit came from (campaigns, ad clicks, newsletters).
 * They do not make a link an affiliate link, but the clean link drops them too.
 *
 * - `utm_…`: campaign tags (Google Analytics and everyone since)
 * - `gclid`, `gclsrc`, `dclid`, `gbraid`, `wbraid`: Google Ads
 * - `fbclid`: Facebook; `igshid`: Instagram; `twclid`: X/Twitter; `ttclid`: TikTok;
 *   `li_fat_id`: LinkedIn; `msclkid`: Microsoft Ads; `yclid`: Yandex
 * - `mc_…` (mc_cid, mc_eid): Mailchimp; `_hsenc`, `_hsmi`: HubSpot; `mkt_tok`: Marketo
 * - `srsltid`: Google Shopping
 */
const TRACKING_NAMES = new Set([
  "gclid",
  "gclsrc",
  "dclid",
  "gbraid",
  "wbraid",
  "fbclid",
  "igshid",
  "twclid",
  "ttclid",
  "li_fat_id",
  "msclkid",
  "yclid",
  "_hsenc",
  "_hsmi",
  "mkt_tok",
  "srsltid",
]);
const TRACKING_PREFIXES = ["utm_", "mc_"];

/** The placeholder of a store's affiliate template that the deal's URL-encoded link replaces. */
export const TEMPLATE_PLACEHOLDER = "{url}";

function matches(name: string, names: Set<string>, prefixes: string[]): boolean {
  const lower = name.toLowerCase();
  return names.has(lower) || prefixes.some((prefix) => lower.startsWith(prefix));
}

export function isAffiliateParam(name: string): boolean {
  return matches(name, AFFILIATE_NAMES, AFFILIATE_PREFIXES);
}

export function isTrackingParam(name: string): boolean {
  return matches(name, TRACKING_NAMES, TRACKING_PREFIXES);
}

/** The link as a URL when it is an http(s) address; anything else (javascript:, data:, junk) null. */
export function webUrl(link: string): URL | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.username || url.password) return null;
    return url;
  } catch {
    return null;
  }
}

/** Whether the link's query names a known affiliate parameter. */
export function hasAffiliateParam(link: string): boolean {
  const url = webUrl(link);
  if (!url) return false;
  for (const name of url.searchParams.keys()) if (isAffiliateParam(name)) return true;
  return false;
}

/** An affiliate link: its store sends deals through an affiliate template, or it carries a partner id. */
export function isAffiliateLink(link: string, storeTemplate: string): boolean {
  if (!webUrl(link)) return false;
  return storeTemplate !== "" || hasAffiliateParam(link);
}

/**
 * The link without its tracking and affiliate parameters (the rest of the query, the path and the
 * fragment stay as they are); "" when the link is not an http(s) address.
 */
export function cleanLink(link: string): string {
  const url = webUrl(link);
  if (!url) return "";
  const names = [...new Set(url.searchParams.keys())];
  for (const name of names) {
    if (isAffiliateParam(name) || isTrackingParam(name)) url.searchParams.delete(name);
  }
  return url.toString();
}

/**
 * Where /go sends a shopper: the stored link, or — when the store has an affiliate template — the
 * template with {url} replaced by the URL-encoded stored link. null when the stored link (or the
 * template's result) is not an http(s) address: such a link is never redirected to.
 */
export function goTarget(link: string, storeTemplate: string): string | null {
  const url = webUrl(link);
  if (!url) return null;
  if (!storeTemplate) return url.toString();
  const templated = webUrl(
    storeTemplate.split(TEMPLATE_PLACEHOLDER).join(encodeURIComponent(url.toString())),
  );
  return templated ? templated.toString() : null;
}

export const TEMPLATE_MESSAGE =
  "Enter an http(s) address that contains {url}, e.g. https://partner.example/?u={url}.";

/** Whether a store's affiliate template is usable: an http(s) address on a named host with {url}. */
export function isValidTemplate(template: string): boolean {
  if (!template.includes(TEMPLATE_PLACEHOLDER)) return false;
  if (!/^https?:\/\//i.test(template)) return false;
  const url = webUrl(template.split(TEMPLATE_PLACEHOLDER).join("x"));
  if (!url) return false;
  // The placeholder must not stand for the host: the store's partner is fixed, not the deal's.
  const hostPart = template.slice(url.protocol.length + 2).split(/[/?#]/)[0] ?? "";
  if (hostPart.includes(TEMPLATE_PLACEHOLDER)) return false;
  return url.hostname.includes(".") || url.hostname === "localhost";
}
