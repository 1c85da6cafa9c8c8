import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { breadcrumbJsonLd } from "../components/Breadcrumbs.tsx";
import { ListingPage } from "../components/ListingPage.tsx";
import { ScopeFollowButton } from "../components/ScopeFollowButton.tsx";
import { listingCanonical, selectedCategory, shouldRevalidateListing } from "../lib/listing.ts";
import { loadListing } from "../lib/listing.server.ts";
import { pageMeta, rootLoaderData } from "../lib/meta.ts";
import { keptListLoader } from "../lib/kept-lists.ts";
import type { Route } from "./+types/category";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  const data = await loadListing(
    services,
    { type: "category", slug: params.slug },
    new URL(request.url),
  );
  const category = selectedCategory(data);
  return {
    ...data,
    // The Follow button beside the title (record 0043).
    viewerId: user?.id ?? null,
    following: category
      ? await services.following.isFollowing(user, "category", category.id)
      : false,
  };
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

export const shouldRevalidate = shouldRevalidateListing;

function crumbs(title: string) {
  return [{ label: "Home", to: "/" }, { label: "Categories", to: "/category" }, { label: title }];
}

export const meta: Route.MetaFunction = ({ matches, loaderData: data, location, params }) => {
  const category = data ? selectedCategory(data) : undefined;
  if (!category) return pageMeta(matches, { title: "Page Not Found", noindex: true });
  const path = `/category/${params.slug}`;
  return pageMeta(matches, {
    title: `${category.title} Deals`,
    description: category.description,
    path: listingCanonical(path, new URLSearchParams(location.search)),
    image: category.image_url,
    feed: { title: `${category.title} deals`, path: `/rss/category/${params.slug}.xml` },
    extra: [
      breadcrumbJsonLd(
        crumbs(category.title),
        rootLoaderData(matches)?.publicConfig.publicUrl ?? "",
        path,
      ),
    ],
  });
};

export default function CategoryPage() {
  const data = useLoaderData<typeof loader>();
  const category = selectedCategory(data)!;
  return (
    <ListingPage
      title={`${category.title} Deals`}
      breadcrumbs={crumbs(category.title)}
      data={data}
      filter={{ filter_type: "category", category_id: category.id }}
      titleAside={
        <ScopeFollowButton
          key={category.id}
          type="category"
          id={category.id}
          title={category.title}
          following={data.following}
          viewerId={data.viewerId}
        />
      }
      intro={
        category.description ? <p className="listing-intro">{category.description}</p> : undefined
      }
    />
  );
}
