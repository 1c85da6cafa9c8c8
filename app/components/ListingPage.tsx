import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useLocation, useNavigation, useNavigationType, useSearchParams } from "react-router";
import { pageFromQuery } from "../../core/list-query.ts";
import type { DealCard } from "../../core/cards/presenter.ts";
import type { ListingResponse } from "../../core/listings/presenter.ts";
import {
  panelFromSearchParams,
  panelToSearchParams,
  sortFromSearchParams,
  expiredFromSearchParams,
  type PanelFilter,
} from "../../core/listings/schema.ts";
import { apiCall } from "../lib/api.ts";
import { addressOf, takeList, useKeptList } from "../lib/kept-lists.ts";
import { filterPayload, listingKey, type FilterContext, type ListingData } from "../lib/listing.ts";
import { Breadcrumbs, type Crumb } from "./Breadcrumbs.tsx";
import { CardLayoutToggle, DealGrid } from "./DealCard.tsx";
import { EmptySuggestions, FilterChips, activeFilters } from "./FilterChips.tsx";
import { FilterPanel, sliderBounds, type VisitStore } from "./FilterPanel.tsx";
import { Pager, pageHref } from "./Pager.tsx";
import { SortBar } from "./SortBar.tsx";
import { ExpiredToggle } from "./ExpiredToggle.tsx";

/** The listing in a route's kept data: the data itself, or its `data` (search's `{ query, data }`). */
function listingIn(routeData: unknown): ListingData | null {
  const isListing = (value: unknown): value is ListingData =>
    typeof value === "object" && value !== null && "key" in value && "listing" in value;
  if (isListing(routeData)) return routeData;
  if (typeof routeData === "object" && routeData !== null && "data" in routeData) {
    return isListing(routeData.data) ? routeData.data : null;
  }
  return null;
}

export interface ListingPageProps {
  title: string;
  breadcrumbs: Crumb[];
  /** The loader's listing (unfiltered, or filtered when the URL asked for it). */
  data: ListingData;
  /** The fixed part of this listing's `POST /api/filter` calls. */
  filter: FilterContext;
  /** A store page's Visit Store card (it replaces the store checklist). */
  visitStore?: VisitStore;
  /** Shown under the title: a store's or category's description. */
  intro?: ReactNode;
  /** Shown beside the title (Follow on a store or category page, record 0043). */
  titleAside?: ReactNode;
  /**
   * The route's data around a listing, when the route's loader does not return the listing itself
   * (search: `{ query, data }`): what Back to the page is given (app/lib/kept-lists.ts).
   */
  routeDataOf?: (listing: ListingData) => unknown;
}

/**
 * The store, category, new-deals and search pages: breadcrumbs, the Filter panel, the sort bar,
 * chips of the active filters, the deal grid and the pager. The unfiltered listing comes
 * server-rendered from the loader; the panel's choices and the sort live in the URL, and the
 * panel's choices switch to filtered mode, fetched with `POST /api/filter`. Changing a filter,
 * the sort or the page keeps the view on the results (no jump to the top of the page).
 */
export function ListingPage({
  title,
  breadcrumbs,
  data,
  filter,
  visitStore,
  intro,
  titleAside,
  routeDataOf,
}: ListingPageProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const location = useLocation();
  const kind = filter.filter_type;
  const key = listingKey(searchParams, kind);
  const panel = useMemo(() => panelFromSearchParams(searchParams), [searchParams]);
  const page = pageFromQuery(searchParams.get("page"));
  const sort = sortFromSearchParams(searchParams, kind);
  const expired = expiredFromSearchParams(searchParams, kind);
  const results = useRef<HTMLElement>(null);
  const [fetched, setFetched] = useState<ListingData | null>(null);
  const [fetching, setFetching] = useState(false);
  // The panel shows a choice at once, before the URL (and then the listing) catches up.
  const [chosen, setChosen] = useState<PanelFilter | null>(null);
  useEffect(() => setChosen(null), [key]);

  // Back or Forward inside the page to a filtered entry the loader was not asked for
  // (shouldRevalidateListing): its results as they were left, if kept (app/lib/kept-lists.ts).
  const [keptEntry, setKeptEntry] = useState<string | null>(null);
  if (keptEntry !== location.key && data.key !== key && fetched?.key !== key) {
    setKeptEntry(location.key);
    const kept = listingIn(takeList<unknown>(location.key, addressOf(location)));
    if (kept?.key === key) setFetched({ key, sort: kept.sort, listing: kept.listing });
  }

  const needsFetch = data.key !== key && fetched?.key !== key;
  const payload = JSON.stringify({
    ...filterPayload(filter, panel, page, sort),
    expired,
  });
  useEffect(() => {
    if (!needsFetch) return;
    let cancelled = false;
    setFetching(true);
    void apiCall("/filter", JSON.parse(payload)).then((result) => {
      if (cancelled) return;
      setFetching(false);
      // The spec: listing failures only stop the spinner.
      if (result.ok && result.data.status === "true") {
        // A store's or category's listing holds deal cards only, never educator posts.
        setFetched({ key, sort, listing: result.data as ListingResponse<DealCard> });
      }
    });
    return () => {
      cancelled = true;
    };
  }, [needsFetch, payload, key, sort]);

  // Fresh loader data (unfiltered mode) supersedes anything fetched before it.
  useEffect(() => setFetched(null), [data]);

  // While a filtered page loads, the previous results stay in place under the spinner.
  const shown = data.key === key ? data : (fetched ?? data);
  // What Back to this entry shows: the route's data (a store's Follow button and clicks too) with
  // the results on screen, fetched ones included.
  const keptData = useMemo(() => {
    const listing =
      shown === data ? data : { ...data, key: shown.key, sort: shown.sort, listing: shown.listing };
    return routeDataOf ? routeDataOf(listing) : listing;
  }, [data, shown, routeDataOf]);
  useKeptList(keptData);
  const { response } = shown.listing;
  const pagination = response.deal_data_pagination;
  const navigating =
    navigation.state === "loading" && navigation.location?.pathname === location.pathname;
  const loading = navigating || (fetching && needsFetch);
  const first = (pagination.current_page - 1) * pagination.per_page + 1;
  const last = Math.min(pagination.total, first + response.deal_data.length - 1);

  const applyPanel = (next: PanelFilter) => {
    setChosen(next);
    const params = panelToSearchParams(next, searchParams);
    params.delete("page");
    setSearchParams(params, { preventScrollReset: true });
  };

  // The phone sheet's "Show N deals": the filter call's total for choices not applied yet.
  const filterJson = JSON.stringify(filter);
  const countDeals = useCallback(
    async (next: PanelFilter) => {
      const result = await apiCall("/filter", {
        ...filterPayload(JSON.parse(filterJson), next, 1, sort),
        expired,
      });
      return result.ok && result.data.status === "true"
        ? result.data.response.deal_data_pagination.total
        : null;
    },
    [filterJson, sort, expired],
  );

  // A new page of results starts at the top of the results, not of the site: when the results'
  // top has scrolled out of view, it is brought back (filters and sorts leave the view alone).
  const shownPage = pagination.current_page;
  const previousPage = useRef(shownPage);
  // Back and Forward leave the view where <ScrollRestoration> puts it.
  const navigationType = useNavigationType();
  useEffect(() => {
    if (previousPage.current === shownPage) return;
    previousPage.current = shownPage;
    if (navigationType === "POP") return;
    const section = results.current;
    if (section && section.getBoundingClientRect().top < 0) {
      section.scrollIntoView({ block: "start" });
    }
  }, [shownPage, navigationType]);

  const filters = activeFilters(panel, response.store_filter);
  const empty = !loading && response.deal_data.length === 0;

  return (
    <div className="container listing">
      <Breadcrumbs items={breadcrumbs} />
      {titleAside ? (
        <div className="listing-title-row">
          <h1 className="page-title">{title}</h1>
          {titleAside}
        </div>
      ) : (
        <h1 className="page-title">{title}</h1>
      )}
      {intro}
      <div className="listing-layout">
        <FilterPanel
          priceBounds={sliderBounds(
            response.price_filter[0]?.min_price,
            response.price_filter[0]?.max_price,
          )}
          discountBounds={sliderBounds(
            response.discount_filter[0]?.min_discount,
            response.discount_filter[0]?.max_discount,
          )}
          value={chosen ?? panel}
          onChange={applyPanel}
          stores={visitStore ? undefined : response.store_filter}
          visitStore={visitStore}
          total={pagination.total}
          countDeals={countDeals}
        />
        <section
          ref={results}
          className="listing-results"
          aria-label={`${title}: results`}
          aria-busy={loading}
        >
          <div className="listing-tools">
            <SortBar kind={kind} sort={sort} params={searchParams} />
            <ExpiredToggle kind={kind} params={searchParams} />
            <FilterChips filters={filters} onChange={applyPanel} />
          </div>
          {/* The count and the grid | list toggle share a row: phones see more deals at once. */}
          <div className="listing-summary-row">
            <p className="listing-summary" aria-live="polite">
              {loading
                ? "Loading…"
                : pagination.total > 0
                  ? `Showing ${first}–${last} of ${pagination.total} deals`
                  : ""}
            </p>
            {response.deal_data.length > 0 && <CardLayoutToggle />}
          </div>
          {loading && (
            <div className="loading listing-loading" role="status">
              <span className="spinner" aria-hidden="true" />
              <span className="visually-hidden">Loading deals</span>
            </div>
          )}
          <div className={loading ? "listing-grid stale" : "listing-grid"}>
            <DealGrid
              deals={response.deal_data}
              headingLevel={2}
              layoutToggle={false}
              priorityFirst
            />
          </div>
          {empty && <EmptySuggestions panel={panel} filters={filters} onChange={applyPanel} />}
          <Pager
            page={pagination.current_page}
            lastPage={pagination.last_page}
            hrefFor={(n) => pageHref(searchParams, n)}
            label={`${title} pages`}
            preventScrollReset
          />
        </section>
      </div>
    </div>
  );
}
