import type { VariantFormat } from "../core/media/variants.ts";

/**
 * Whether an Accept-style header (`Accept`, `Accept-Encoding`) names `token` with a quality above
 * 0: `image/avif`, `image/avif;q=0.9` and `br, gzip` do; `br;q=0`, a wildcard and no header do
 * not (a wildcard promises nothing in particular). Case and spaces are ignored.
 */
export function acceptsToken(header: string | null | undefined, token: string): boolean {
  for (const range of (header ?? "").split(",")) {
    const [name, ...params] = range.split(";");
    if (name!.trim().toLowerCase() !== token) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
    if (q === undefined || Number(q) > 0) return true;
  }
  return false;
}

/**
 * The variant format a request's `Accept` header prefers: AVIF when it names `image/avif` (with a
 * quality above 0), as every browser that decodes AVIF does; WebP otherwise (a wildcard, or no
 * header, is no promise of AVIF; every browser in use reads WebP, the stored image's own format).
 */
export function acceptedVariantFormat(accept: string | null | undefined): VariantFormat {
  return acceptsToken(accept, "image/avif") ? "avif" : "webp";
}
