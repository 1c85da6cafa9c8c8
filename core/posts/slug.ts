/* Free of server code: the console's forms make the same slug in the browser as the server. */

/** URL slug from a title: lower-case ASCII words joined by dashes, at most 80 characters. */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "") // "Kohl's" → "kohls", not "kohl-s"
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
  return slug || "post";
}
