import { describe, expect, it } from "vitest";
import {
  CARD_VIEW_FIELDS,
  shareCards,
  toCardView,
  unshareCards,
  type DealCardView,
} from "./card-view.ts";

/** A full card as the JSON API answers it: the card view's fields and some it does not show. */
function fullCard(id: number) {
  const view = Object.fromEntries(CARD_VIEW_FIELDS.map((f) => [f, `${f}-${id}`]));
  return {
    ...view,
    id,
    grab_deal_link: `https://example.com/${id}`,
    user_name: "someone",
    views: 12,
  } as unknown as DealCardView;
}

describe("cards shared by a page's lists", () => {
  it("keeps each distinct card once, cut to the card view, and the lists as ids", () => {
    const [a, b, c] = [fullCard(1), fullCard(2), fullCard(3)];
    const shared = shareCards({ trending: [a, b], recent: [c, a, b] });
    expect(shared.ids).toEqual({ trending: [1, 2], recent: [3, 1, 2] });
    expect(shared.cards.map((card) => card.id)).toEqual([1, 2, 3]);
    for (const card of shared.cards) {
      expect(Object.keys(card).sort()).toEqual([...CARD_VIEW_FIELDS].sort());
    }
  });

  it("gives the lists back as they were, in the card view", () => {
    const [a, b, c] = [fullCard(1), fullCard(2), fullCard(3)];
    const lists = unshareCards(shareCards({ trending: [a, b], recent: [c, a], empty: [] }));
    expect(lists.trending).toEqual([toCardView(a), toCardView(b)]);
    expect(lists.recent).toEqual([toCardView(c), toCardView(a)]);
    expect(lists.empty).toEqual([]);
    // A deal in both lists is one object: the page renders it from the same data.
    expect(lists.recent[1]).toBe(lists.trending[0]);
  });
});
