import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { pageFromQuery } from "../../core/list-query.ts";
import { directoryQuery } from "../../core/listings/directory.ts";
import { CatalogPage } from "../components/CatalogPage.tsx";
import { listingCanonical } from "../lib/listing.ts";
import { notFound } from "../lib/errors.ts";
import { pageMeta } from "../lib/meta.ts";
import { keptListLoader, useKeptList } from "../lib/kept-lists.ts";
import type { Route } from "./+types/categories";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  const page = pageFromQuery(params.get("page"));
  const categories = await services.listings.directory(
    "category",
    page,
    directoryQuery(params.get("q")),
  );
  if (page > categories.lastPage) notFound();
  return categories;
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

export const meta: Route.MetaFunction = ({ matches, loaderData: data, location }) =>
  pageMeta(matches, {
    title: data && data.currentPage > 1 ? `Categories – Page ${data.currentPage}` : "Categories",
    description:
      "Deals and coupons by category: school supplies, classroom decor, books, tech and more.",
    // A searched list is a view of the full one, which is what should be indexed.
    noindex: Boolean(data?.query),
    path: listingCanonical("/category", new URLSearchParams(location.search)),
  });

export default function CategoriesPage() {
  useKeptList();
  const categories = useLoaderData<typeof loader>();
  return <CatalogPage title="Categories" basePath="/category" directory={categories} />;
}
