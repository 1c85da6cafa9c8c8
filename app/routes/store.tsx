import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { breadcrumbJsonLd } from "../components/Breadcrumbs.tsx";
import { ListingPage } from "../components/ListingPage.tsx";
import { ScopeFollowButton } from "../components/ScopeFollowButton.tsx";
import { StoreClicks } from "../components/StoreClicks.tsx";
import { listingCanonical, selectedStore, shouldRevalidateListing } from "../lib/listing.ts";
import { loadListing } from "../lib/listing.server.ts";
import { pageMeta, rootLoaderData } from "../lib/meta.ts";
import { keptListLoader } from "../lib/kept-lists.ts";
import type { Route } from "./+types/store";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  const data = await loadListing(
    services,
    { type: "store", slug: params.slug },
    new URL(request.url),
  );
  const store = selectedStore(data);
  // Clicks through /go on its deals (record 0039): per-store day counters, kept a few minutes.
  return {
    ...data,
    clicks: store ? await services.links.storeClicks(store.id) : 0,
    // The Follow button beside the title (record 0043).
    viewerId: user?.id ?? null,
    following: store ? await services.following.isFollowing(user, "store", store.id) : false,
  };
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

export const shouldRevalidate = shouldRevalidateListing;

function crumbs(title: string) {
  return [{ label: "Home", to: "/" }, { label: "Stores", to: "/store" }, { label: title }];
}

export const meta: Route.MetaFunction = ({ matches, loaderData: data, location, params }) => {
  const store = data ? selectedStore(data) : undefined;
  if (!store) return pageMeta(matches, { title: "Page Not Found", noindex: true });
  const path = `/store/${params.slug}`;
  return pageMeta(matches, {
    title: `${store.title} Deals and Coupons`,
    description: store.description,
    path: listingCanonical(path, new URLSearchParams(location.search)),
    image: store.image_url,
    feed: { title: `${store.title} deals`, path: `/rss/store/${params.slug}.xml` },
    extra: [
      breadcrumbJsonLd(
        crumbs(store.title),
        rootLoaderData(matches)?.publicConfig.publicUrl ?? "",
        path,
      ),
    ],
  });
};

export default function StorePage() {
  const data = useLoaderData<typeof loader>();
  const store = selectedStore(data)!;
  return (
    <ListingPage
      title={`${store.title} Deals`}
      breadcrumbs={crumbs(store.title)}
      data={data}
      filter={{ filter_type: "store", store_id: store.id }}
      visitStore={store}
      titleAside={
        <ScopeFollowButton
          key={store.id}
          type="store"
          id={store.id}
          title={store.title}
          following={data.following}
          viewerId={data.viewerId}
        />
      }
      intro={
        <>
          {store.description && <p className="listing-intro">{store.description}</p>}
          <StoreClicks clicks={data.clicks} />
        </>
      }
    />
  );
}
