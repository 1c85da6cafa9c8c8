import { useSearchParams } from "react-router";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { CatalogCard, type CatalogItem } from "./CatalogCard.tsx";
import { Pager, pageHref } from "./Pager.tsx";
import "../styles/listings.css";

export interface CatalogPageProps {
  title: string;
  items: CatalogItem[];
  /** Where a card leads: /store or /category, then the item's slug. */
  basePath: string;
  page: number;
  lastPage: number;
  total: number;
}

/** The /store and /category pages: a paged grid of cards (2, 3 or 4 columns by width). */
export function CatalogPage({ title, items, basePath, page, lastPage, total }: CatalogPageProps) {
  const [searchParams] = useSearchParams();
  return (
    <div className="container catalog">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: title }]} />
      <h1 className="page-title">{title}</h1>
      {items.length === 0 ? (
        <p className="no-data">No Data Found</p>
      ) : (
        <>
          <p className="listing-summary">
            {total} {title.toLowerCase()}
            {lastPage > 1 ? ` · page ${page} of ${lastPage}` : ""}
          </p>
          <ul className="catalog-grid">
            {items.map((item) => (
              <li key={item.id}>
                <CatalogCard item={item} basePath={basePath} />
              </li>
            ))}
          </ul>
        </>
      )}
      <Pager
        page={page}
        lastPage={lastPage}
        hrefFor={(n) => pageHref(searchParams, n)}
        label={`${title} pages`}
      />
    </div>
  );
}
