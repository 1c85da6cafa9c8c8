import { Link } from "react-router";
import type { MetaDescriptor } from "react-router";

export interface Crumb {
  label: string;
  /** Omitted for the current page (the last crumb). */
  to?: string;
}

/** Home › … › the current page, as a labelled navigation landmark. */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {items.map((crumb, i) => (
          <li key={`${i}-${crumb.label}`}>
            {crumb.to && i < items.length - 1 ? (
              <Link to={crumb.to}>{crumb.label}</Link>
            ) : (
              <span aria-current="page">{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** schema.org BreadcrumbList for a page's head (pass as `extra` to pageMeta). */
export function breadcrumbJsonLd(
  items: Crumb[],
  base: string,
  currentPath: string,
): MetaDescriptor {
  return {
    "script:ld+json": {
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: items.map((crumb, i) => ({
        "@type": "ListItem",
        position: i + 1,
        name: crumb.label,
        item: new URL(crumb.to ?? currentPath, `${base}/`).toString(),
      })),
    },
  };
}
