import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { pageFromQuery } from "../../core/catalog/schema.ts";
import { CatalogPage } from "../components/CatalogPage.tsx";
import { listingCanonical } from "../lib/listing.ts";
import { notFound } from "../lib/errors.ts";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/stores";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const page = pageFromQuery(new URL(request.url).searchParams.get("page"));
  const stores = await services.catalog.storesPage(page);
  if (page > stores.lastPage) notFound();
  return stores;
}

export const meta: Route.MetaFunction = ({ matches, loaderData: data, location }) =>
  pageMeta(matches, {
    title: data && data.currentPage > 1 ? `Stores – Page ${data.currentPage}` : "Stores",
    description:
      "Every store with deals and coupons for teachers and shoppers, from Amazon to Lakeshore Learning.",
    path: listingCanonical("/store", new URLSearchParams(location.search)),
  });

export default function StoresPage() {
  const stores = useLoaderData<typeof loader>();
  return (
    <CatalogPage
      title="Stores"
      items={stores.items}
      basePath="/store"
      page={stores.currentPage}
      lastPage={stores.lastPage}
      total={stores.total}
    />
  );
}
