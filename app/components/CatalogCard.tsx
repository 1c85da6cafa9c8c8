import { Link } from "react-router";
import { useMediaUrl } from "../lib/media-url.tsx";

/** What a card of the /store or /category grid shows: a store or a category. */
export interface CatalogItem {
  id: number;
  slug: string;
  title: string;
  image_url: string | null;
  /** Its live deals (active, not expired), where counted. */
  live_deals?: number;
}

export function liveDealsLabel(count: number): string {
  if (count === 0) return "No live deals";
  return `${count} live ${count === 1 ? "deal" : "deals"}`;
}

/** A store or category card, opening `{basePath}/{slug}` (/store/{slug}, /category/{slug}). */
export function CatalogCard({ item, basePath }: { item: CatalogItem; basePath: string }) {
  const mediaUrl = useMediaUrl();
  return (
    <Link to={`${basePath}/${item.slug}`} className="catalog-card">
      <span className="catalog-card-image">
        {item.image_url ? (
          <img
            src={mediaUrl(item.image_url)}
            alt=""
            width={300}
            height={200}
            loading="lazy"
            decoding="async"
          />
        ) : null}
      </span>
      <span className="catalog-card-text">
        <span className="catalog-card-title">{item.title}</span>
        {item.live_deals !== undefined && (
          <span className="catalog-card-count">{liveDealsLabel(item.live_deals)}</span>
        )}
      </span>
    </Link>
  );
}
