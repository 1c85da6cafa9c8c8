import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { breadcrumbJsonLd } from "../components/Breadcrumbs.tsx";
import { ListingPage } from "../components/ListingPage.tsx";
import { listingCanonical, shouldRevalidateListing } from "../lib/listing.ts";
import { loadListing } from "../lib/listing.server.ts";
import { pageMeta, rootLoaderData } from "../lib/meta.ts";
import { keptListLoader } from "../lib/kept-lists.ts";
import type { Route } from "./+types/new-deals";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return loadListing(services, { type: "newdeals" }, new URL(request.url));
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

export const shouldRevalidate = shouldRevalidateListing;

const CRUMBS = [{ label: "Home", to: "/" }, { label: "New Deals" }];

export const meta: Route.MetaFunction = ({ matches, loaderData: data, location }) => {
  const page = data?.listing.response.deal_data_pagination.current_page ?? 1;
  return pageMeta(matches, {
    title: page > 1 ? `New Deals – Page ${page}` : "New Deals",
    description: "The newest deals and coupons posted by teachers and shoppers, newest first.",
    path: listingCanonical("/newdeals", new URLSearchParams(location.search)),
    feed: { title: "New deals", path: "/rss/newdeals.xml" },
    extra: [
      breadcrumbJsonLd(CRUMBS, rootLoaderData(matches)?.publicConfig.publicUrl ?? "", "/newdeals"),
    ],
  });
};

export default function NewDealsPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <ListingPage
      title="New Deals"
      breadcrumbs={CRUMBS}
      data={data}
      filter={{ filter_type: "newdeals" }}
    />
  );
}
