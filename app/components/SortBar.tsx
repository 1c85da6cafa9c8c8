import { Link } from "react-router";
import { sortsOf, type ListingKind, type ListingSort } from "../../core/listings/schema.ts";
import { sortHref } from "../lib/listing.ts";

/** What each sort is called on the page. */
export const SORT_LABELS: Record<ListingSort, string> = {
  relevance: "Relevance",
  hot: "Hot",
  new: "New",
  discount: "Top discount",
  price: "Price low to high",
};

/**
 * The listing's sorts as links (`?sort=`, page back to 1, filters kept): they work without
 * JavaScript, can be opened in a new tab, and keep the view where it is.
 */
export function SortBar({
  kind,
  sort,
  params,
}: {
  kind: ListingKind;
  sort: ListingSort;
  params: URLSearchParams;
}) {
  return (
    <nav className="sort-bar" aria-label="Sort deals">
      <span className="sort-bar-label" aria-hidden="true">
        Sort:
      </span>
      <ul>
        {sortsOf(kind).map((option) => (
          <li key={option}>
            <Link
              to={sortHref(params, kind, option)}
              preventScrollReset
              replace={false}
              className={option === sort ? "sort-option current" : "sort-option"}
              aria-current={option === sort ? "true" : undefined}
            >
              <span className="visually-hidden">Sort by </span>
              {SORT_LABELS[option]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
