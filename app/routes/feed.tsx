import { Link, redirect, useLoaderData, useNavigation, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import { toCardView } from "../../core/cards/card-view.ts";
import { pageFromQuery } from "../../core/list-query.ts";
import { FEED_MAX_PAGES } from "../../core/member/follows/schema.ts";
import { pageClock } from "../../core/time/page-clock.ts";
import { DealGrid } from "../components/DealCard.tsx";
import { Pager } from "../components/Pager.tsx";
import { ScopeFollowButton } from "../components/ScopeFollowButton.tsx";
import { pageMeta } from "../lib/meta.ts";
import { keptListLoader, useKeptList } from "../lib/kept-lists.ts";
import type { Route } from "./+types/feed";

/**
 * My Feed (record 0043): new deals from the stores and categories the member follows and the
 * members they follow, newest first. Empty, it suggests popular stores to follow.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  const page = pageFromQuery(new URL(request.url).searchParams.get("page"), FEED_MAX_PAGES);
  const feed = await services.following.feedPage(user, page);
  return {
    deals: feed.listing.items.map(toCardView),
    total: feed.listing.total,
    page: feed.listing.currentPage,
    lastPage: feed.listing.lastPage,
    followed: feed.followed,
    followsAnything: feed.followsAnything,
    suggestions: feed.suggestions,
    viewerId: user.id,
    now: pageClock(),
  };
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "My Feed", path: "/user/feed", noindex: true });

function Following({
  followed,
}: {
  followed: ReturnType<typeof useLoaderData<typeof loader>>["followed"];
}) {
  const names = [
    ...followed.stores.map((s) => ({ key: `s${s.id}`, to: `/store/${s.slug}`, title: s.title })),
    ...followed.categories.map((c) => ({
      key: `c${c.id}`,
      to: `/category/${c.slug}`,
      title: c.title,
    })),
  ];
  if (names.length === 0) return null;
  return (
    <p className="personal-following">
      Following:{" "}
      {names.map((n, i) => (
        <span key={n.key}>
          {i > 0 && ", "}
          <Link to={n.to}>{n.title}</Link>
        </span>
      ))}
    </p>
  );
}

export default function MyFeed() {
  useKeptList();
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const loading = navigation.state === "loading" || revalidator.state === "loading";
  const empty = data.total === 0;
  return (
    <div className="container personal-page">
      <div className="personal-head">
        <h1 className="page-title">My Feed</h1>
        {!empty && (
          <p className="personal-following" role="status">
            {data.total === 1 ? "1 deal" : `${data.total} deals`}
          </p>
        )}
      </div>
      <Following followed={data.followed} />
      {empty ? (
        <div className="card personal-empty">
          <p>
            {data.followsAnything
              ? "Nothing new yet from what you follow. New deals from the stores, categories and members you follow will show here."
              : "Your feed shows new deals from the stores, categories and members you follow. Follow a store to start it."}
          </p>
          {data.suggestions.length > 0 && (
            <>
              <h2 className="section-title">Popular stores to follow</h2>
              <ul className="suggested-stores">
                {data.suggestions.map((store) => (
                  <li key={store.id} className="card suggested-store">
                    <span>
                      <Link to={`/store/${store.slug}`}>{store.title}</Link>
                      <span className="suggested-store-count">
                        {store.live_deals === 1 ? "1 live deal" : `${store.live_deals} live deals`}
                      </span>
                    </span>
                    <ScopeFollowButton
                      type="store"
                      id={store.id}
                      title={store.title}
                      following={false}
                      viewerId={data.viewerId}
                      onChange={() => void revalidator.revalidate()}
                    />
                  </li>
                ))}
              </ul>
            </>
          )}
          <p>
            <Link to="/store">See all stores</Link> · <Link to="/newdeals">Browse New Deals</Link>
          </p>
        </div>
      ) : (
        <section
          aria-label="Deals in your feed"
          aria-busy={loading || undefined}
          className={loading ? "personal-loading" : undefined}
        >
          <DealGrid deals={data.deals} headingLevel={2} priorityFirst />
          <Pager
            page={data.page}
            lastPage={data.lastPage}
            hrefFor={(p) => `?page=${p}`}
            label="My Feed pages"
          />
        </section>
      )}
    </div>
  );
}
