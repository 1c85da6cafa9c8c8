import { Link } from "react-router";
import type { Store } from "../../core/catalog/presenter.ts";

/** A store of the /store grid, opening /store/{slug}. */
export function StoreCard({ store }: { store: Store }) {
  return (
    <Link to={`/store/${store.slug}`} className="catalog-card">
      <span className="catalog-card-image">
        {store.image_url ? (
          <img
            src={store.image_url}
            alt=""
            width={300}
            height={300}
            loading="lazy"
            decoding="async"
          />
        ) : null}
      </span>
      <span className="catalog-card-title">{store.title}</span>
    </Link>
  );
}
