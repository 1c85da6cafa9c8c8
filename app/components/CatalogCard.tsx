import { Link } from "react-router";

/** What a card of the /store or /category grid shows: a store or a category. */
export interface CatalogItem {
  id: number;
  slug: string;
  title: string;
  image_url: string | null;
}

/** A store or category card, opening `{basePath}/{slug}` (/store/{slug}, /category/{slug}). */
export function CatalogCard({ item, basePath }: { item: CatalogItem; basePath: string }) {
  return (
    <Link to={`${basePath}/${item.slug}`} className="catalog-card">
      <span className="catalog-card-image">
        {item.image_url ? (
          <img
            src={item.image_url}
            alt=""
            width={300}
            height={300}
            loading="lazy"
            decoding="async"
          />
        ) : null}
      </span>
      <span className="catalog-card-title">{item.title}</span>
    </Link>
  );
}
