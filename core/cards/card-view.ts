import type { DealCard } from "./presenter.ts";

/**
 * The fields a deal card shows (app/components/DealCard.tsx), and nothing else: what the pages'
 * loaders send for their cards, so that the HTML's hydration data stays light (record 0050). The
 * JSON API keeps the spec's full card; a full card is a DealCardView too, so LOAD MORE's API
 * answers render through the same component.
 */
export const CARD_VIEW_FIELDS = [
  "id",
  "unique_id",
  "slug",
  "post_type",
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

/**
 * Several lists of cards on one page, each distinct card once (record 0050): the home page's
 * Trending and Recent lists often hold the same deal, and a loader's data goes into the page's
 * HTML. `cards` holds each card once, in the order first met; each list is the ids of its cards.
 */
export interface SharedCards<K extends string> {
  cards: DealCardView[];
  ids: Record<K, number[]>;
}

/** Cuts each list's cards down to the card view and keeps each distinct card once. */
export function shareCards<K extends string>(
  lists: Record<K, readonly DealCardView[]>,
): SharedCards<K> {
  const cards = new Map<number, DealCardView>();
  const ids = {} as Record<K, number[]>;
  for (const name of Object.keys(lists) as K[]) {
    ids[name] = lists[name].map((card) => {
      if (!cards.has(card.id)) cards.set(card.id, toCardView(card));
      return card.id;
    });
  }
  return { cards: [...cards.values()], ids };
}

/** The lists again, as arrays of cards (the same card object wherever a deal is listed twice). */
export function unshareCards<K extends string>(shared: SharedCards<K>): Record<K, DealCardView[]> {
  const byId = new Map(shared.cards.map((card) => [card.id, card]));
  const lists = {} as Record<K, DealCardView[]>;
  for (const name of Object.keys(shared.ids) as K[]) {
    lists[name] = shared.ids[name].flatMap((id) => {
      const card = byId.get(id);
      return card ? [card] : [];
    });
  }
  return lists;
}
