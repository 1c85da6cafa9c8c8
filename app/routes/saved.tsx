import { Link, redirect, useLoaderData, useNavigation } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import { pageFromQuery } from "../../core/list-query.ts";
import { toCardView } from "../../core/cards/card-view.ts";
import { pageClock } from "../../core/time/page-clock.ts";
import { DealGrid } from "../components/DealCard.tsx";
import { Pager } from "../components/Pager.tsx";
import { BOOKMARK_ICON } from "../components/icons.tsx";
import { notFound } from "../lib/errors.ts";
import { pageMeta } from "../lib/meta.ts";
import { keptListLoader, useKeptList } from "../lib/kept-lists.ts";
import type { Route } from "./+types/saved";

/** The signed-in member's saved deals (record 0043); a visitor goes to /login and comes back. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  const page = pageFromQuery(new URL(request.url).searchParams.get("page"));
  const listing = await services.saved.list(user, { user_id: undefined, page });
  if (page > listing.lastPage) notFound();
  return {
    deals: listing.items.map(toCardView),
    total: listing.total,
    page: listing.currentPage,
    lastPage: listing.lastPage,
    now: pageClock(),
  };
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Saved Deals", path: "/user/saved", noindex: true });

export default function SavedDeals() {
  useKeptList();
  const { deals, total, page, lastPage } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading";
  return (
    <div className="container personal-page">
      <div className="personal-head">
        <h1 className="page-title">Saved Deals</h1>
        <p className="personal-following" role="status">
          {total === 0 ? "" : total === 1 ? "1 saved deal" : `${total} saved deals`}
        </p>
      </div>
      {total === 0 ? (
        <div className="card personal-empty">
          <p>
            You have not saved any deals yet. Tap the bookmark {BOOKMARK_ICON} on a deal, or Save on
            its page, to keep it here. Expired deals stay, marked Expired.
          </p>
          <Link to="/newdeals" className="btn btn-accent">
            Browse New Deals
          </Link>
        </div>
      ) : (
        <section
          aria-label="Saved deals"
          aria-busy={loading || undefined}
          className={loading ? "personal-loading" : undefined}
        >
          <DealGrid deals={deals} headingLevel={2} priorityFirst />
          <Pager
            page={page}
            lastPage={lastPage}
            hrefFor={(p) => `?page=${p}`}
            label="Saved deals pages"
          />
        </section>
      )}
    </div>
  );
}
