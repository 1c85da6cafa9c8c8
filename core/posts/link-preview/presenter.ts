import type { z } from "zod";
import { postPath } from "../paths.ts";
import type { PageFacts } from "./page-reader.ts";
import type { LinkPreviewResponse } from "./responses.ts";

type Duplicate = {
  unique_id: string;
  slug: string;
  title: string;
  price: number | null;
  expires_at: Date | null;
};

type Lowest = {
  unique_id: string;
  slug: string;
  price: number | null;
  currency: string;
  created_at: Date;
};

/** A link preview as `POST /api/link_preview` answers it (core/posts/link-preview/responses.ts). */
export function presentLinkPreview(preview: {
  facts: PageFacts;
  imageUrl: string | null;
  store: { id: number; title: string } | null;
  duplicates: Duplicate[];
  lowest: Lowest | null;
  finalUrl: string;
  now: Date;
}): z.infer<typeof LinkPreviewResponse> {
  const { facts, store, lowest } = preview;
  return {
    status: "true",
    title: facts.title,
    price: facts.price,
    currency: facts.currency,
    image_url: preview.imageUrl,
    store_id: store?.id ?? null,
    coupon_code: facts.couponCode,
    duplicates: preview.duplicates.map((deal) => ({
      unique_id: deal.unique_id,
      slug: deal.slug,
      title: deal.title,
      price: deal.price === null ? null : Number(deal.price),
      url: postPath({ ...deal, post_type: "d" }),
      expired: deal.expires_at !== null && deal.expires_at <= preview.now,
    })),
    lowest_price_90_days:
      lowest && lowest.price !== null
        ? {
            price: Number(lowest.price),
            currency: lowest.currency,
            unique_id: lowest.unique_id,
            url: postPath({ ...lowest, post_type: "d" }),
            date: lowest.created_at.toISOString(),
          }
        : null,
    store_name: store?.title ?? null,
    source: facts.source,
    final_link: preview.finalUrl,
  };
}
