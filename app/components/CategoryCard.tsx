import { Link } from "react-router";
import type { Category } from "../../core/catalog/presenter.ts";

/** A category of the /category grid, opening /category/{slug}. */
export function CategoryCard({ category }: { category: Category }) {
  return (
    <Link to={`/category/${category.slug}`} className="catalog-card">
      <span className="catalog-card-image">
        {category.image_url ? (
          <img
            src={category.image_url}
            alt=""
            width={300}
            height={300}
            loading="lazy"
            decoding="async"
          />
        ) : null}
      </span>
      <span className="catalog-card-title">{category.title}</span>
    </Link>
  );
}
