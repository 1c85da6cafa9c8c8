import { useEffect, useRef, useState } from "react";
import { useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { PAGE_SIZE } from "../../core/constants.ts";
import type { DealCard, presentHomeFilter, presentRecentPage } from "../../core/deals/presenter.ts";
import { DealGrid } from "../components/DealCard.tsx";
import { WishlistCarousel } from "../components/WishlistCarousel.tsx";
import { apiCall } from "../lib/api.ts";
import { pageMeta } from "../lib/meta.ts";
import "../styles/home.css";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const [home, stores, categories] = await Promise.all([
    services.deals.home(),
    services.catalog.allStores(),
    services.catalog.allCategories(),
  ]);
  return {
    ...home,
    merchants: stores.map((s) => ({ id: s.id, title: s.title })),
    categories: categories.map((c) => ({ id: c.id, title: c.title })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    path: "/",
    feed: { title: "New deals", path: "/rss/newdeals.xml" },
  });

type LoaderData = Awaited<ReturnType<typeof loader>>;
type HomeFilterResponse = ReturnType<typeof presentHomeFilter>;
type RecentPageResponse = ReturnType<typeof presentRecentPage>;

interface HomeLists {
  trending: DealCard[];
  recent: DealCard[];
  currentPage: number;
  lastPage: number;
}

function listsOf(data: LoaderData): HomeLists {
  return {
    trending: data.trending,
    recent: data.recent.deals,
    currentPage: data.recent.currentPage,
    lastPage: data.recent.lastPage,
  };
}

/** Appends a page, leaving out deals already listed (new posts shift later pages by a few). */
function appendDeals(listed: DealCard[], more: DealCard[]): DealCard[] {
  const seen = new Set(listed.map((d) => d.unique_id));
  return [...listed, ...more.filter((d) => !seen.has(d.unique_id))];
}

/** A further page of recent deals, of the filtered lists or of the unfiltered ones. */
async function fetchRecentPage(
  filter: { merchant: string; category: string } | null,
  page: number,
) {
  if (filter) {
    const r = await apiCall<HomeFilterResponse>("/category_store_filter_home", {
      store_id: filter.merchant,
      category_id: filter.category,
      page,
    });
    return { ok: r.ok, deals: r.data.recent_deals_data, pagination: r.data.pagination };
  }
  const r = await apiCall<RecentPageResponse>("/recent_deal_pagination", { page });
  return { ok: r.ok, deals: r.data.recent_deals, pagination: r.data.recent_deals_pagination };
}

/**
 * The home page's two lists and their modes (the spec): unfiltered, they come from the loader and
 * LOAD MORE appends recent deals; a merchant or category switches to the filtered lists, and
 * clearing both reloads the unfiltered ones. The button hides on the last page or after an error.
 */
function useHomeLists(data: LoaderData) {
  const revalidator = useRevalidator();
  const [merchant, setMerchant] = useState("");
  const [category, setCategory] = useState("");
  const filtered = merchant !== "" || category !== "";
  const [lists, setLists] = useState<HomeLists>(() => listsOf(data));
  const [loading, setLoading] = useState<"filter" | "more" | null>(null);
  const [failed, setFailed] = useState(false);
  // Answers to superseded requests (the filter changed again meanwhile) are dropped.
  const requestSeq = useRef(0);

  useEffect(() => {
    if (filtered) return;
    setLists(listsOf(data));
    setFailed(false);
  }, [data, filtered]);

  async function applyFilter(nextMerchant: string, nextCategory: string) {
    setMerchant(nextMerchant);
    setCategory(nextCategory);
    setFailed(false);
    const seq = ++requestSeq.current;
    if (!nextMerchant && !nextCategory) {
      // Unfiltered mode again: reload the home lists.
      setLoading(null);
      void revalidator.revalidate();
      return;
    }
    setLoading("filter");
    const result = await apiCall<HomeFilterResponse>("/category_store_filter_home", {
      store_id: nextMerchant,
      category_id: nextCategory,
      page: 1,
    });
    if (seq !== requestSeq.current) return;
    setLoading(null);
    if (!result.ok) {
      setLists({ trending: [], recent: [], currentPage: 1, lastPage: 1 });
      setFailed(true);
      return;
    }
    setLists({
      trending: result.data.trending_deals_arr,
      recent: result.data.recent_deals_data,
      currentPage: result.data.pagination.current_page,
      lastPage: result.data.pagination.last_page,
    });
  }

  async function loadMore() {
    const seq = requestSeq.current;
    const page = lists.currentPage + 1;
    setLoading("more");
    const next = await fetchRecentPage(filtered ? { merchant, category } : null, page);
    if (seq !== requestSeq.current) return;
    setLoading(null);
    if (!next.ok) {
      // The spec: the button hides on error.
      setFailed(true);
      return;
    }
    setLists((current) => ({
      ...current,
      recent: appendDeals(current.recent, next.deals),
      currentPage: next.pagination.current_page,
      lastPage: next.pagination.last_page,
    }));
  }

  return {
    merchant,
    category,
    filtered,
    lists,
    loadingMore: loading === "more",
    filtering: loading === "filter" || (revalidator.state === "loading" && !filtered),
    showLoadMore:
      !failed && lists.recent.length >= PAGE_SIZE.homeRecent && lists.currentPage < lists.lastPage,
    applyFilter,
    loadMore,
  };
}

type HomeListsState = ReturnType<typeof useHomeLists>;

/** By Merchant and By Category, and a button that clears both. */
function HomeFilters({ data, home }: { data: LoaderData; home: HomeListsState }) {
  const { merchant, category, filtered, applyFilter } = home;
  return (
    <section className="home-filters" aria-label="Filter deals">
      <div className="form-field">
        <label htmlFor="home-merchant">By Merchant</label>
        <select
          id="home-merchant"
          value={merchant}
          onChange={(event) => void applyFilter(event.target.value, category)}
        >
          <option value="">All merchants</option>
          {data.merchants.map((m) => (
            <option key={m.id} value={String(m.id)}>
              {m.title}
            </option>
          ))}
        </select>
      </div>
      <div className="form-field">
        <label htmlFor="home-category">By Category</label>
        <select
          id="home-category"
          value={category}
          onChange={(event) => void applyFilter(merchant, event.target.value)}
        >
          <option value="">All categories</option>
          {data.categories.map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.title}
            </option>
          ))}
        </select>
      </div>
      {filtered && (
        <button type="button" className="btn btn-outline" onClick={() => void applyFilter("", "")}>
          Clear filters
        </button>
      )}
    </section>
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

      <section aria-labelledby="wishlist-heading" className="home-section">
        <h2 id="wishlist-heading">Teachers Wishlist</h2>
        <WishlistCarousel entries={data.wishlist} />
      </section>

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
        <section aria-labelledby="recent-heading" className="home-section">
          <h2 id="recent-heading">Recent Deals</h2>
          <DealGrid deals={lists.recent} />
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
