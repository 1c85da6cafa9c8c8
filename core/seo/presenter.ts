import { postPath } from "../posts/paths.ts";
import { formatCurrency } from "../intl-formats.ts";
import type { FeedDealRow } from "./repository.ts";
import { excerpt } from "./text.ts";
import { siteImage } from "../media/media-path.ts";

/** XML documents for search engines and feed readers: sitemaps (sitemaps.org 0.9) and RSS 2.0. */

export function xmlEscape(text: string): string {
  return (
    text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
      // Characters XML 1.0 does not allow at all.
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
  );
}

export interface SitemapEntry {
  loc: string;
  lastmod?: Date | null;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

function lastmodTag(date: Date | null | undefined): string {
  return date ? `<lastmod>${date.toISOString()}</lastmod>` : "";
}

/** A sitemap index: the list of sitemap files. */
export function sitemapIndexXml(sitemaps: SitemapEntry[]): string {
  return [
    XML_DECLARATION,
    `<sitemapindex xmlns="${SITEMAP_NS}">`,
    ...sitemaps.map(
      (s) => `<sitemap><loc>${xmlEscape(s.loc)}</loc>${lastmodTag(s.lastmod)}</sitemap>`,
    ),
    "</sitemapindex>",
    "",
  ].join("\n");
}

/** One sitemap file: the URLs of pages. */
export function urlsetXml(urls: SitemapEntry[]): string {
  return [
    XML_DECLARATION,
    `<urlset xmlns="${SITEMAP_NS}">`,
    ...urls.map((u) => `<url><loc>${xmlEscape(u.loc)}</loc>${lastmodTag(u.lastmod)}</url>`),
    "</urlset>",
    "",
  ].join("\n");
}

/** Paths crawlers are asked to leave alone: personal, transactional and machine pages. */
export const ROBOTS_DISALLOW = [
  "/user/",
  "/submitdeal",
  "/api/",
  "/logout",
  "/delete-account",
  "/payment",
] as const;

export function robotsTxt(publicUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

export interface FeedChannel {
  title: string;
  /** The page the feed follows. */
  link: string;
  description: string;
  /** The feed's own URL (atom:link rel="self"). */
  selfUrl: string;
}

function money(amount: number, currency: string): string {
  try {
    return formatCurrency(amount, currency);
  } catch {
    return `${currency} ${amount.toFixed(2)}`;
  }
}

/** An item's HTML summary: picture, price line and the start of the description. */
function itemHtml(row: FeedDealRow, imageUrl: string): string {
  const parts: string[] = [];
  if (imageUrl) parts.push(`<p><img src="${xmlEscape(imageUrl)}" alt="" width="400"></p>`);
  const offer: string[] = [];
  if (row.price !== null) offer.push(`<strong>${money(row.price, row.currency)}</strong>`);
  if (row.list_price !== null && row.price !== null && row.list_price > row.price) {
    offer.push(`<s>${money(row.list_price, row.currency)}</s>`);
  }
  if (row.discount) offer.push(`${row.discount}% off`);
  if (row.kind === "coupon" && row.coupon_code)
    offer.push(`Coupon code ${xmlEscape(row.coupon_code)}`);
  if (row.store_title) offer.push(`at ${xmlEscape(row.store_title)}`);
  if (offer.length) parts.push(`<p>${offer.join(" ")}</p>`);
  const text = excerpt(row.description_text, 300);
  if (text) parts.push(`<p>${xmlEscape(text)}</p>`);
  return parts.join("");
}

/** An RSS 2.0 feed of deals. Its build date is the newest item's, so unchanged feeds keep their ETag. */
export function rssXml(channel: FeedChannel, rows: FeedDealRow[], publicUrl: string): string {
  const newest = rows.reduce<Date | null>(
    (latest, row) => (latest === null || row.updated_at > latest ? row.updated_at : latest),
    null,
  );
  const items = rows.map((row) => {
    const url = `${publicUrl}${postPath(row)}`;
    const image = siteImage(row.image_url) && new URL(row.image_url, `${publicUrl}/`).toString();
    return [
      "<item>",
      `<title>${xmlEscape(row.title)}</title>`,
      `<link>${xmlEscape(url)}</link>`,
      `<guid isPermaLink="true">${xmlEscape(url)}</guid>`,
      `<pubDate>${row.created_at.toUTCString()}</pubDate>`,
      row.store_title ? `<category>${xmlEscape(row.store_title)}</category>` : "",
      row.user_name ? `<dc:creator>${xmlEscape(row.user_name)}</dc:creator>` : "",
      `<description>${xmlEscape(itemHtml(row, image))}</description>`,
      "</item>",
    ]
      .filter(Boolean)
      .join("");
  });
  return [
    XML_DECLARATION,
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "<channel>",
    `<title>${xmlEscape(channel.title)}</title>`,
    `<link>${xmlEscape(channel.link)}</link>`,
    `<description>${xmlEscape(channel.description)}</description>`,
    "<language>en-us</language>",
    newest ? `<lastBuildDate>${newest.toUTCString()}</lastBuildDate>` : "",
    `<atom:link href="${xmlEscape(channel.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    "</channel>",
    "</rss>",
    "",
  ]
    .filter((line) => line !== "")
    .join("\n")
    .concat("\n");
}
