import { Link } from "react-router";
import { PAGER_FULL_LIMIT } from "../../core/constants.ts";

export type PagerItem = number | "gap-start" | "gap-end";

/**
 * The pages a pager lists (the spec's business limits): every page up to PAGER_FULL_LIMIT pages,
 * otherwise a window of the same length: first, last, the current page with its neighbours, and
 * ellipses.
 */
export function pagerItems(page: number, lastPage: number): PagerItem[] {
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (lastPage <= PAGER_FULL_LIMIT) return range(1, lastPage);
  // With 7 slots: 1 … p−1 p p+1 … last; near either end, the window hugs that end.
  const edge = PAGER_FULL_LIMIT - 2;
  if (page < edge) return [...range(1, edge), "gap-end", lastPage];
  if (page > lastPage - edge + 1) return [1, "gap-start", ...range(lastPage - edge + 1, lastPage)];
  return [1, "gap-start", page - 1, page, page + 1, "gap-end", lastPage];
}

export interface PagerProps {
  page: number;
  lastPage: number;
  /** The link of a page, e.g. `?page=3` with the rest of the query kept. */
  hrefFor: (page: number) => string;
  /** What the pages are of, for screen readers: "Stores pages". */
  label?: string;
  /** Leave the scroll position to the page (a listing brings its results into view itself). */
  preventScrollReset?: boolean;
}

/** Previous · numbered pages · Next, as links with `?page=`; nothing when there is one page. */
export function Pager({
  page,
  lastPage,
  hrefFor,
  label = "Pages",
  preventScrollReset,
}: PagerProps) {
  if (lastPage <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <ul>
        <li>
          {page > 1 ? (
            <Link
              to={hrefFor(page - 1)}
              className="pager-step"
              rel="prev"
              preventScrollReset={preventScrollReset}
            >
              Previous
            </Link>
          ) : (
            <span className="pager-step" aria-disabled="true">
              Previous
            </span>
          )}
        </li>
        {pagerItems(page, lastPage).map((item) =>
          typeof item === "number" ? (
            <li key={item}>
              <Link
                to={hrefFor(item)}
                preventScrollReset={preventScrollReset}
                className={item === page ? "pager-page current" : "pager-page"}
                aria-current={item === page ? "page" : undefined}
                aria-label={`Page ${item}`}
              >
                {item}
              </Link>
            </li>
          ) : (
            <li key={item} className="pager-gap" aria-hidden="true">
              …
            </li>
          ),
        )}
        <li>
          {page < lastPage ? (
            <Link
              to={hrefFor(page + 1)}
              className="pager-step"
              rel="next"
              preventScrollReset={preventScrollReset}
            >
              Next
            </Link>
          ) : (
            <span className="pager-step" aria-disabled="true">
              Next
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}

/** `?page=N` with the rest of a query kept. */
export function pageHref(params: URLSearchParams, page: number): string {
  const next = new URLSearchParams(params);
  next.set("page", String(page));
  return `?${next.toString()}`;
}
