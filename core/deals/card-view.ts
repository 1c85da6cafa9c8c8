import type { DealCard } from "./presenter.ts";

/**
 * The fields a deal card shows (app/components/DealCard.tsx), and nothing else: what the pages'
 * loaders send for their cards, so that the HTML's hydration data stays light (issue 14). The JSON
 * API keeps the spec's full card; a full card is a DealCardView too, so LOAD MORE's API answers
 * render through the same component.
 */
export const CARD_VIEW_FIELDS = [
  "id",
  "unique_id",
  "slug",
  "post_type",
  "type",
  "title",
  "image_url",
  "price",
  "list_price",
  "discount",
  "currency",
  "deal_badge",
  "coupon_code",
  "is_expired",
  "store_title",
  "comments",
  "created_at",
  "temperature",
  "last_verified_at",
  "lowest_in_90d",
] as const satisfies readonly (keyof DealCard)[];

export type DealCardView = Pick<DealCard, (typeof CARD_VIEW_FIELDS)[number]>;

/** A full card cut down to what the card shows. */
export function toCardView(card: DealCardView): DealCardView {
  const view = {} as Record<string, unknown>;
  for (const field of CARD_VIEW_FIELDS) view[field] = card[field];
  return view as DealCardView;
}
