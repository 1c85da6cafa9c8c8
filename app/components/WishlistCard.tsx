import type { WishlistEntry } from "../../core/home/presenter.ts";

/** One teacher of the Teachers Wishlist: opens their wish list in a new tab. */
export function WishlistCard({ entry }: { entry: WishlistEntry }) {
  return (
    <a
      href={entry.amazon_wishlist}
      target="_blank"
      rel="nofollow noopener noreferrer"
      className="wishlist-card"
    >
      {/* One string, one text node: React writes `{a} {b}` as three, with markers between. */}
      <span className="wishlist-name">{`${entry.first_name} ${entry.last_name}`}</span>
      <span className="wishlist-school">{entry.school_location}</span>
      <span className="wishlist-cta">
        View wish list<span className="visually-hidden"> (opens in a new tab)</span>
      </span>
    </a>
  );
}
