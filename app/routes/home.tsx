import { useEffect, useId, useMemo, useRef, useState } from "react";
import { Link, useLoaderData, useLocation, useNavigate, useNavigation } from "react-router";
import { requestContext } from "#app-context";
import { PAGE_SIZE } from "../../core/constants.ts";
import {
  shareCards,
  unshareCards,
  type DealCardView,
  type SharedCards,
} from "../../core/cards/card-view.ts";
import { DealGrid } from "../components/DealCard.tsx";
import { WishlistCarousel } from "../components/WishlistCarousel.tsx";
import { apiCall } from "../lib/api.ts";
import {
  homeFilterFromSearch,
  homeFilterSearch,
  isFiltered,
  pendingHomeFilter,
  type HomeFilter,
} from "../lib/home-filter.ts";
import {
  loadFilterChoices,
  useFilterChoices,
  type FilterChoice,
} from "../lib/home-filter-choices.ts";
import { keptListLoader, useKeptList } from "../lib/kept-lists.ts";
import { pageMeta } from "../lib/meta.ts";
import "../styles/home.css";
import type { Route } from "./+types/home";
import { pageClock } from "../../core/time/page-clock.ts";

/** The lists as the page shows them. */
interface HomeLists {
  trending: DealCardView[];
  recent: DealCardView[];
  currentPage: number;
  lastPage: number;
}

/**
 * The lists as the loader sends them (and as Back's snapshots keep them): each distinct card once,
 * in the card view, and the two lists as ids (core/cards/card-view.ts), so that a deal both
 * trending and recent is in the page's hydration data once.
 */
interface HomeListsData extends SharedCards<"trending" | "recent"> {
  currentPage: number;
  lastPage: number;
}

function packLists({ trending, recent, currentPage, lastPage }: HomeLists): HomeListsData {
  return { ...shareCards({ trending, recent }), currentPage, lastPage };
}

function unpackLists(data: HomeListsData): HomeLists {
  return { ...unshareCards(data), currentPage: data.currentPage, lastPage: data.lastPage };
}

function choiceOf(items: FilterChoice[], id: number | null): FilterChoice | null {
  const item = id === null ? undefined : items.find((i) => i.id === id);
  return item ? { id: item.id, title: item.title } : null;
}

/**
 * The home page. Its By Merchant / By Category choice is in the address (`?store=&category=`,
 * app/lib/home-filter.ts), so the server renders the filtered lists of a shared or reloaded page.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const [home, stores, categories] = await Promise.all([
    services.home.home(),
    services.catalog.allStores(),
    services.catalog.allCategories(),
  ]);
  const filter = homeFilterFromSearch(new URL(request.url).searchParams, {
    stores: new Set(stores.map((s) => s.id)),
    categories: new Set(categories.map((c) => c.id)),
  });
  const { trending, recent } = isFiltered(filter)
    ? await services.home.homeFilter({
        store_id: filter.store ?? undefined,
        category_id: filter.category ?? undefined,
        page: 1,
      })
    : home;
  const lists = packLists({
    trending,
    recent: recent.deals,
    currentPage: recent.currentPage,
    lastPage: recent.lastPage,
  });
  return {
    wishlist: home.wishlist,
    filter,
    // Cards carry only what they show, each once (core/cards/card-view.ts); the JSON API keeps
    // full ones.
    lists,
    /** The server's clock, for the cards' time-ago labels (they read the same after hydration). */
    now: pageClock(),
    /**
     * The chosen merchant and category, the options the page's selects start with; the browser
     * loads the rest (app/lib/home-filter-choices.ts).
     */
    chosen: {
      merchant: choiceOf(stores, filter.store),
      category: choiceOf(categories, filter.category),
    },
  };
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

/**
 * Back or Forward to a home page left after LOAD MORE: the lists as they were, from memory, with
 * no request (app/lib/kept-lists.ts); every other time, the server's.
 */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    path: "/",
    feed: { title: "New deals", path: "/rss/newdeals.xml" },
  });

/** Appends a page, leaving out deals already listed (new posts shift later pages by a few). */
function appendDeals(listed: DealCardView[], more: DealCardView[]): DealCardView[] {
  const seen = new Set(listed.map((d) => d.unique_id));
  return [...listed, ...more.filter((d) => !seen.has(d.unique_id))];
}

/**
 * A further page of recent deals, of the filtered lists or of the unfiltered ones (the spec's
 * calls); false when the call failed.
 */
async function fetchRecentPage(filter: HomeFilter, page: number) {
  if (isFiltered(filter)) {
    const r = await apiCall("/category_store_filter_home", {
      store_id: filter.store ?? "",
      category_id: filter.category ?? "",
      page,
    });
    return r.ok && { deals: r.data.recent_deals_data, pagination: r.data.pagination };
  }
  const r = await apiCall("/recent_deal_pagination", { page });
  return r.ok && { deals: r.data.recent_deals, pagination: r.data.recent_deals_pagination };
}

/**
 * The home page's lists and their modes (the spec): the loader gives the first page of the
 * unfiltered or the filtered lists; LOAD MORE appends recent deals and hides on the last page or
 * after an error. Choosing a merchant or category changes the address (replacing the history
 * entry: Back leaves the page rather than stepping through every choice), and the loader answers.
 * The lists as shown are remembered for the history entry, for Back.
 */
function useHomeLists(data: LoaderData) {
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [state, setState] = useState(() => ({
    source: data,
    lists: unpackLists(data.lists),
    failed: false,
  }));
  let current = state;
  if (state.source !== data) {
    // New loader data (another filter, a revalidation): start from its lists.
    current = { source: data, lists: unpackLists(data.lists), failed: false };
    setState(current);
  }
  const { lists, failed } = current;
  const [loadingMore, setLoadingMore] = useState(false);
  // An answer to LOAD MORE that arrives after the filter changed is dropped.
  const source = useRef(data);
  useEffect(() => {
    source.current = data;
  }, [data]);

  const shown = useMemo(() => ({ ...data, lists: packLists(lists) }), [data, lists]);
  useKeptList(shown);

  // While the lists of a new choice load, the selects already show it, and a second change
  // builds on it rather than on the lists on screen.
  const pending =
    navigation.state === "loading" && navigation.location.pathname === "/"
      ? navigation.location
      : null;
  const shownFilter = pending ? pendingHomeFilter(pending.search) : data.filter;

  function applyFilter(filter: HomeFilter) {
    const base = new URLSearchParams(pending ? pending.search : location.search);
    void navigate(
      { pathname: "/", search: homeFilterSearch(filter, base) },
      { replace: true, preventScrollReset: true },
    );
  }

  async function loadMore() {
    const asked = data;
    setLoadingMore(true);
    const next = await fetchRecentPage(data.filter, lists.currentPage + 1);
    setLoadingMore(false);
    if (source.current !== asked) return;
    setState((s) => {
      if (s.source !== asked) return s;
      // The spec: the button hides on error.
      if (!next) return { ...s, failed: true };
      return {
        ...s,
        lists: {
          ...s.lists,
          recent: appendDeals(s.lists.recent, next.deals),
          currentPage: next.pagination.current_page,
          lastPage: next.pagination.last_page,
        },
      };
    });
  }

  const filtering = pending !== null && pending.search !== location.search;

  return {
    filter: shownFilter,
    lists,
    loadingMore,
    filtering,
    showLoadMore:
      !failed && lists.recent.length >= PAGE_SIZE.homeRecent && lists.currentPage < lists.lastPage,
    applyFilter,
    loadMore,
  };
}

type HomeListsState = ReturnType<typeof useHomeLists>;

/**
 * A select's options after "All …": every choice once loaded; until then the chosen one alone
 * (named by the loader), so the select shows the page's filter from the first paint.
 */
function ChoiceOptions({
  choices,
  chosen,
  known,
}: {
  choices: FilterChoice[] | undefined;
  /** The select's value (a choice still loading included). */
  chosen: number | null;
  /** The choice the loader named, if any. */
  known: FilterChoice | null;
}) {
  const shown = choices ?? (known && known.id === chosen ? [known] : []);
  return shown.map((choice) => (
    <option key={choice.id} value={String(choice.id)}>
      {choice.title}
    </option>
  ));
}

/**
 * By Merchant and By Category, and a button that clears both. On phones they fold into a bar
 * (a disclosure button that says how many are chosen), so the deals come first.
 */
function HomeFilters({ data, home }: { data: LoaderData; home: HomeListsState }) {
  const { filter, applyFilter } = home;
  const [open, setOpen] = useState(false);
  const choices = useFilterChoices();
  const panelId = useId();
  const chosen = (filter.store !== null ? 1 : 0) + (filter.category !== null ? 1 : 0);
  const idValue = (id: number | null) => (id === null ? "" : String(id));
  const idOf = (value: string) => (value === "" ? null : Number(value));
  return (
    <div className="home-bar">
      <div className="home-bar-row">
        <button
          type="button"
          className="btn btn-outline home-filter-toggle"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => {
            loadFilterChoices();
            setOpen((o) => !o);
          }}
        >
          Filter deals
          {chosen > 0 && (
            <span className="home-filter-count">
              {chosen}
              <span className="visually-hidden"> chosen</span>
            </span>
          )}
        </button>
        <nav className="home-shortcuts" aria-label="More deals">
          <Link to="/newdeals">New Deals</Link>
          <Link to="/forum">Forum</Link>
        </nav>
      </div>
      <section
        id={panelId}
        className={open ? "home-filters open" : "home-filters"}
        aria-label="Filter deals"
      >
        <div className="form-field">
          <label htmlFor="home-merchant">By Merchant</label>
          <select
            id="home-merchant"
            value={idValue(filter.store)}
            onChange={(event) => applyFilter({ ...filter, store: idOf(event.target.value) })}
            onFocus={loadFilterChoices}
            onPointerDown={loadFilterChoices}
          >
            <option value="">All merchants</option>
            <ChoiceOptions
              choices={choices?.merchants}
              chosen={filter.store}
              known={data.chosen.merchant}
            />
          </select>
        </div>
        <div className="form-field">
          <label htmlFor="home-category">By Category</label>
          <select
            id="home-category"
            value={idValue(filter.category)}
            onChange={(event) => applyFilter({ ...filter, category: idOf(event.target.value) })}
            onFocus={loadFilterChoices}
            onPointerDown={loadFilterChoices}
          >
            <option value="">All categories</option>
            <ChoiceOptions
              choices={choices?.categories}
              chosen={filter.category}
              known={data.chosen.category}
            />
          </select>
        </div>
        {isFiltered(filter) && (
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => applyFilter({ store: null, category: null })}
          >
            Clear filters
          </button>
        )}
      </section>
    </div>
  );
}

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const home = useHomeLists(data);
  const { lists, filtering } = home;

  return (
    <div className="container home">
      <h1 className="visually-hidden">Deals and coupons for teachers and shoppers</h1>
      <HomeFilters data={data} home={home} />

      <div className="home-lists" aria-busy={filtering}>
        {filtering && (
          <div className="loading" role="status">
            <span className="spinner" aria-hidden="true" />
            <span className="visually-hidden">Loading deals</span>
          </div>
        )}
        <section aria-labelledby="trending-heading" className="home-section">
          <h2 id="trending-heading">Trending Deals</h2>
          <DealGrid deals={lists.trending} priorityFirst />
        </section>

        {/* Below the first deals, so that on a phone the deals come first. */}
        <section aria-labelledby="wishlist-heading" className="home-section home-wishlist">
          <h2 id="wishlist-heading">Teachers Wishlist</h2>
          <WishlistCarousel entries={data.wishlist} />
        </section>

        <section aria-labelledby="recent-heading" className="home-section">
          <div className="home-section-head">
            <h2 id="recent-heading">Recent Deals</h2>
            <Link to="/newdeals" className="home-section-more">
              All new deals
            </Link>
          </div>
          <DealGrid deals={lists.recent} layoutToggle={false} />
          {home.showLoadMore && (
            <div className="load-more">
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => void home.loadMore()}
                disabled={home.loadingMore}
              >
                {home.loadingMore ? "Loading…" : "LOAD MORE"}
              </button>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
