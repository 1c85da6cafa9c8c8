import { useCallback } from "react";
import { Form, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { searchText } from "../../core/listings/schema.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { ListingPage } from "../components/ListingPage.tsx";
import { listingCanonical, shouldRevalidateListing, type ListingData } from "../lib/listing.ts";
import { loadListing } from "../lib/listing.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { keptListLoader } from "../lib/kept-lists.ts";
import type { Route } from "./+types/search";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const url = new URL(request.url);
  const query = searchText(url.searchParams.get("query"));
  // No text yet is a prompt to search, not an error.
  if (!query) return { query, data: null };
  return { query, data: await loadListing(services, { type: "search", query }, url) };
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

export const shouldRevalidate = shouldRevalidateListing;

export const meta: Route.MetaFunction = ({ matches, loaderData: data, location }) =>
  pageMeta(matches, {
    title: data?.query ? `Search results for “${data.query}”` : "Search deals",
    description: data?.query
      ? `Deals and coupons matching “${data.query}”.`
      : "Search deals and coupons by product, store or category.",
    path: listingCanonical("/search", new URLSearchParams(location.search), ["query"]),
    // Result pages are many and thin; the listings they point to are what should be indexed.
    noindex: true,
  });

function SearchForm({ query }: { query: string }) {
  return (
    <Form method="get" action="/search" role="search" className="search-form">
      <label htmlFor="search-page-input">What are you looking for?</label>
      <div className="search-form-row">
        <input
          id="search-page-input"
          type="search"
          name="query"
          defaultValue={query}
          placeholder="Crayons, laptops, Target…"
          maxLength={200}
        />
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </div>
    </Form>
  );
}

export default function SearchPage() {
  const { query, data } = useLoaderData<typeof loader>();
  // What Back to these results is given: the loader's shape around the results on screen.
  const routeDataOf = useCallback((listing: ListingData) => ({ query, data: listing }), [query]);
  if (!data) {
    return (
      <div className="container listing">
        <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Search" }]} />
        <h1 className="page-title">Search deals</h1>
        <p className="search-prompt">
          Type a product, store or category — for example “crayons”, “Chromebook” or “Target” — to
          find deals and coupons.
        </p>
        <SearchForm query="" />
      </div>
    );
  }
  return (
    <ListingPage
      key={query}
      title={`Search results for “${query}”`}
      breadcrumbs={[{ label: "Home", to: "/" }, { label: "Search" }, { label: query }]}
      data={data}
      filter={{ filter_type: "search", search_title: query }}
      intro={<SearchForm query={query} />}
      routeDataOf={routeDataOf}
    />
  );
}
