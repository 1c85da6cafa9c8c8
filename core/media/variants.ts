/**
 * Responsive variants of stored images (docs/decisions/0036-responsive-images.md), by name alone:
 * no database lookup, and nothing a page or card has to carry beside its image URL.
 *
 * An image stored with variants has its size in its name, `<stem>.<W>x<H>.<ext>` (e.g.
 * `/media/deals/q3Xb….800x600.webp`), and beside it, for each variant width w, the files
 * `<stem>.<W>x<H>.w<w>.avif` and `<stem>.<W>x<H>.w<w>.webp`. A name without the size (an older
 * upload, a link to elsewhere) has no variants: it is shown as it is, without `srcset`.
 *
 * This server also answers each variant's name without its format, `<stem>.<W>x<H>.w<w>` (a
 * *negotiated* variant URL), with the AVIF or the WebP file as the request's `Accept` header allows
 * (docs/decisions/0064-negotiated-image-formats.md): pages that link media here need one `srcset`.
 * The header is read by the server (server/plugins/media.ts); this module only takes the format.
 *
 * Imported by the browser bundle (app/components/ResponsiveImage.tsx): no Node.js modules here.
 */

/** The widths variants are made in, never wider than the image itself. */
export const VARIANT_WIDTHS = [320, 640, 960] as const;

/** The formats of each variant width, best first (a <picture> lists them in this order). */
export const VARIANT_FORMATS = ["avif", "webp"] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

/** Only our own media can have variants: a link to elsewhere is never rewritten. */
const MEDIA_PREFIX = "/media/";
/** `<stem>.<W>x<H>.<ext>`; the stem holds no dot (server-made and demo names never do). */
const SIZED_NAME = /^([\w/-]+)\.([1-9]\d{0,4})x([1-9]\d{0,4})\.(webp|png|jpg|jpeg|gif)$/;

/**
 * The widths an image `width` pixels wide has variants in: each of VARIANT_WIDTHS, one narrower
 * than the image kept as it is and a wider one made at the image's own width (never upscaled).
 * 800 → [320, 640, 800]; 1600 → [320, 640, 960]; 200 → [200].
 */
export function variantWidths(width: number): number[] {
  const widths = VARIANT_WIDTHS.map((w) => Math.min(w, width));
  return [...new Set(widths)];
}

/** The name an image of this size is stored under: `<stem>.<W>x<H>.<ext>`. */
export function sizedName(stem: string, width: number, height: number, ext: string): string {
  return `${stem}.${width}x${height}.${ext}`;
}

/** The path of one variant of a stored image, beside it (`path` with or without /media/). */
export function variantPath(path: string, width: number, format: VariantFormat): string {
  return path.replace(/\.[^./]+$/, `.w${width}.${format}`);
}

/**
 * The negotiated URL of one variant (`<stem>.<W>x<H>.w<w>`, no format): /media/ on this server
 * answers it with the AVIF or WebP file (negotiatedVariantPath).
 */
export function negotiatedVariantPath(path: string, width: number): string {
  return path.replace(/\.[^./]+$/, `.w${width}`);
}

export interface ImageVariants {
  /** The stored image's own size. */
  width: number;
  height: number;
  /**
   * `srcset` per format, narrowest first: "<url> 320w, <url> 640w, …"; `negotiated` names the
   * format-less URLs, which only this server answers (not a CDN or bucket at MEDIA_BASE_URL).
   */
  srcset: Record<VariantFormat | "negotiated", string>;
}

/** The size an image's name carries (relative path or /media/ URL), or null when it has none. */
function parseSized(path: string): { width: number; height: number } | null {
  const match = SIZED_NAME.exec(path);
  if (!match) return null;
  return { width: Number(match[2]), height: Number(match[3]) };
}

/**
 * Where a page links a stored image: with `baseUrl` (MEDIA_BASE_URL, a CDN or the bucket's own
 * address; no trailing slash), `/media/deals/x.webp` becomes `<baseUrl>/deals/x.webp`; without it,
 * or for a link to elsewhere, the URL is left as it is. The database always keeps /media/ URLs
 * (docs/decisions/0046-media-storage.md): this is the one place that maps them.
 */
export function mediaUrl(url: string, baseUrl: string | null | undefined): string {
  if (!baseUrl || !url.startsWith(MEDIA_PREFIX)) return url;
  return `${baseUrl}/${url.slice(MEDIA_PREFIX.length)}`;
}

/**
 * The variants of the images pages showed lately: every card of every listing render asks, and
 * the same few hundred images come back request after request. Bounded: emptied when full.
 */
const recentVariants = new Map<string, ImageVariants | null>();
const RECENT_VARIANTS_LIMIT = 2_000;

/**
 * The variants a stored image's URL has, derived from its name; null for a URL without them (an
 * older upload, another site's image), which is then shown as it is. With `baseUrl`, the srcset
 * links them there (see mediaUrl).
 */
export function imageVariants(
  url: string | null | undefined,
  baseUrl?: string | null,
): ImageVariants | null {
  if (!url?.startsWith(MEDIA_PREFIX)) return null;
  const key = baseUrl ? `${baseUrl}\n${url}` : url;
  let variants = recentVariants.get(key);
  if (variants === undefined) {
    if (recentVariants.size >= RECENT_VARIANTS_LIMIT) recentVariants.clear();
    variants = deriveVariants(url, baseUrl);
    recentVariants.set(key, variants);
  }
  return variants;
}

function deriveVariants(url: string, baseUrl: string | null | undefined): ImageVariants | null {
  const size = parseSized(url);
  if (!size) return null;
  const widths = variantWidths(size.width);
  const srcsetOf = (pathOf: (w: number) => string) =>
    widths.map((w) => `${mediaUrl(pathOf(w), baseUrl)} ${w}w`).join(", ");
  return {
    ...size,
    srcset: {
      avif: srcsetOf((w) => variantPath(url, w, "avif")),
      webp: srcsetOf((w) => variantPath(url, w, "webp")),
      negotiated: srcsetOf((w) => negotiatedVariantPath(url, w)),
    },
  };
}

/** `<stem>.<W>x<H>.w<w>.<avif|webp>`: a variant's name. */
const VARIANT_NAME = /^([\w/-]+\.([1-9]\d{0,4})x([1-9]\d{0,4}))\.w([1-9]\d{0,4})\.(avif|webp)$/;

/** The extensions a stored image with variants may have (uploads are WebP; demo art WebP or PNG). */
export const SIZED_EXTENSIONS = ["webp", "png", "jpg", "jpeg", "gif"] as const;

/**
 * What a variant's path (relative to the media folder) names: the stored image's path without its
 * extension (`<stem>.<W>x<H>`), the width and the format. Null for anything else, including a
 * width the image has no variant in.
 */
export function parseVariantPath(
  path: string,
): { base: string; width: number; format: VariantFormat } | null {
  const match = VARIANT_NAME.exec(path);
  if (!match) return null;
  const width = Number(match[4]);
  if (!variantWidths(Number(match[2])).includes(width)) return null;
  return { base: match[1]!, width, format: match[5] as VariantFormat };
}

/**
 * The concrete variant a negotiated variant path names (`<stem>.<W>x<H>.w<w>`, with or without
 * /media/, no query) in `format` (the server picks it from the request's Accept header,
 * server/accept-header.ts): `….w320` → `….w320.avif` or `….w320.webp`.
 * Null for anything else — another name, a format already named, a width the image has no
 * variant in — so the same characters as a stored name (letters, digits, `_`, `-`, `/`) and
 * nothing more ever reach the media folder or bucket this way.
 */
export function negotiatedVariantTarget(path: string, format: VariantFormat): string | null {
  const concrete = `${path}.${format}`;
  return parseVariantPath(concrete) ? concrete : null;
}

/**
 * Every variant file of a stored image (paths relative to the media folder, like `path`): what to
 * delete with it. Empty for an image stored without variants.
 */
export function variantFiles(path: string): string[] {
  const size = parseSized(path);
  if (!size) return [];
  return variantWidths(size.width).flatMap((w) =>
    VARIANT_FORMATS.map((format) => variantPath(path, w, format)),
  );
}
