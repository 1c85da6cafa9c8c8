import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { pageFromQuery } from "../../core/catalog/schema.ts";
import { CatalogPage } from "../components/CatalogPage.tsx";
import { listingCanonical } from "../lib/listing.ts";
import { notFound } from "../lib/errors.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/categories";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const page = pageFromQuery(new URL(request.url).searchParams.get("page"));
  const categories = await services.catalog.categoriesPage(page);
  if (page > categories.lastPage) notFound();
  return categories;
}

export const meta: Route.MetaFunction = ({ matches, loaderData: data, location }) =>
  pageMeta(matches, {
    title: data && data.currentPage > 1 ? `Categories – Page ${data.currentPage}` : "Categories",
    description:
      "Deals and coupons by category: school supplies, classroom decor, books, tech and more.",
    path: listingCanonical("/category", new URLSearchParams(location.search)),
  });

export default function CategoriesPage() {
  const categories = useLoaderData<typeof loader>();
  return (
    <CatalogPage
      title="Categories"
      items={categories.items}
      basePath="/category"
      page={categories.currentPage}
      lastPage={categories.lastPage}
      total={categories.total}
    />
  );
}
