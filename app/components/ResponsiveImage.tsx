import { preload } from "react-dom";
import { imageVariants, mediaUrl } from "../../core/media/variants.ts";
import { useMediaBaseUrl } from "../lib/media-url.tsx";

/**
 * `sizes` of the places images are shown, matched to their CSS (app/styles/app.css, post.css).
 * Deal cards: a 96 px compact row on phones (< 576 px), then a grid of 2 (to 766 px), 3 (to
 * 990 px) and at most 4 columns in the 1200 px container (at most 280 px; less beside the filter
 * panel of listing pages).
 */
export const IMAGE_SIZES = {
  // Written without optional spaces: every card of a page repeats it twice.
  card: "(max-width:575px) 96px,(max-width:766px) calc(50vw - 24px),(max-width:990px) calc(33.3vw - 21px),280px",
  /**
   * The deal page's picture, in its padded card: full width on phones, then 5/11 of the card
   * beside the summary (at most 500 px).
   */
  post: "(max-width: 767px) calc(100vw - 72px), (max-width: 1199px) calc(45.5vw - 44px), 500px",
} as const;

export interface ResponsiveImageProps {
  src: string;
  alt: string;
  /** How wide the image is shown at each viewport width (see IMAGE_SIZES). */
  sizes: string;
  /** The slot's size, for an image whose own size is not known (its aspect ratio matters). */
  width: number;
  height: number;
  /**
   * The page's main image (the deal page's, the first card of a list): loaded at once and first
   * (`fetchpriority="high"`). Otherwise the image loads lazily, when it nears the viewport.
   */
  priority?: boolean;
  className?: string;
}

/**
 * An image in the sizes and formats stored for it (core/media/variants.ts), so the browser picks
 * the smallest that fills the slot:
 * - media linked to this server (no MEDIA_BASE_URL): one <img> whose `srcset` names the variants
 *   without their format; /media/ answers each with AVIF or WebP by the request's Accept header
 *   (docs/decisions/0064-negotiated-image-formats.md). About 370 bytes less per card than a
 *   <picture>.
 * - media at MEDIA_BASE_URL (a CDN or bucket, which cannot negotiate): a <picture> with an AVIF
 *   source and a WebP `srcset` on the <img>.
 * An image stored without variants (an older upload, another site's picture) is a plain <img>.
 * Width and height are the image's own when known, so the page does not shift as it loads.
 */
export function ResponsiveImage({
  src,
  alt,
  sizes,
  width,
  height,
  priority = false,
  className,
}: ResponsiveImageProps) {
  const baseUrl = useMediaBaseUrl();
  const variants = imageVariants(src, baseUrl);
  // Format-less variant URLs are answered by this server only, never by MEDIA_BASE_URL's.
  const picture = !!variants && !!baseUrl;
  const img = (
    <img
      src={mediaUrl(src, baseUrl)}
      srcSet={variants ? (picture ? variants.srcset.webp : variants.srcset.negotiated) : undefined}
      sizes={variants ? sizes : undefined}
      alt={alt}
      width={variants?.width ?? width}
      height={variants?.height ?? height}
      className={className}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding={priority ? undefined : "async"}
    />
  );
  if (!variants) return img;
  if (priority) {
    // The page's main picture (its LCP on phones) is named in the head, first of the page's
    // images, so it does not wait for the parser to reach it behind the style sheets and scripts.
    // React does this itself for a plain high-priority <img> (this call and its are one link), but
    // never for one inside a <picture>: there the AVIF candidates the <source> offers are named,
    // which a browser that reads no AVIF skips (`type`). Negotiated URLs need no type.
    const srcset = picture ? variants.srcset.avif : variants.srcset.negotiated;
    preload(srcset.split(",")[0]!.trim().split(" ")[0]!, {
      as: "image",
      ...(picture ? { type: "image/avif" } : {}),
      imageSrcSet: srcset,
      imageSizes: sizes,
      fetchPriority: "high",
    });
  }
  if (!picture) return img;
  return (
    <picture className="responsive-image">
      <source type="image/avif" srcSet={variants.srcset.avif} sizes={sizes} />
      {img}
    </picture>
  );
}
