import { randomBytes } from "node:crypto";

const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"; // no look-alikes (l/1, o/0)

/** The short random public id of a post (`unique_id` in the spec), 10 characters, ~50 bits. */
export function newUniqueId(length = 10): string {
  const bytes = randomBytes(length);
  let id = "";
  for (let i = 0; i < length; i++) id += ALPHABET[bytes[i]! % ALPHABET.length];
  return id;
}

export { slugify } from "./slug.ts";

/**
 * The link of a deal reduced to what identifies the product: host without "www.", path without a
 * trailing slash, and the query minus tracking parameters. Two deals with the same key are the same
 * offer.
 */
export function linkKey(link: string): string {
  if (!link) return "";
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return link.trim().toLowerCase();
  }
  const params = [...url.searchParams.entries()]
    .filter(([k]) => !/^(utm_|ref$|ref_|tag$|affid|aff_|fbclid|gclid|mc_)/i.test(k))
    .sort(([a], [b]) => a.localeCompare(b));
  const query = params.length ? "?" + new URLSearchParams(params).toString() : "";
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  const pathname = url.pathname.replace(/\/+$/, "");
  return `${host}${pathname}${query}`;
}
