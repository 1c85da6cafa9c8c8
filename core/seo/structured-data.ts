import type { ProductDetails } from "../posts/presenter.ts";

/**
 * schema.org JSON-LD for post pages (breadcrumbs: breadcrumbJsonLd in app/components/Breadcrumbs.tsx) (docs/decisions/0012-discovery-and-public-pages.md). Pure
 * functions of a post's presented fields, so search engines read the same facts the page shows.
 */

function absolute(publicUrl: string, path: string): string {
  return new URL(path, `${publicUrl}/`).toString();
}

function summary(post: ProductDetails): string {
  return post.description_text.slice(0, 500);
}

/**
 * A deal as a Product with one Offer. Search engines require a price on an Offer, so a post
 * without one (most coupons) gets no Product, only its breadcrumbs.
 */
export function productJsonLd(post: ProductDetails, publicUrl: string, pageUrl: string) {
  if (post.price === null) return null;
  const offer: Record<string, unknown> = {
    "@type": "Offer",
    price: post.price.toFixed(2),
    priceCurrency: post.currency,
    availability: post.is_expired ? "https://schema.org/OutOfStock" : "https://schema.org/InStock",
    url: pageUrl,
  };
  if (post.expiry) offer.priceValidUntil = post.expiry.slice(0, 10);
  if (post.store) offer.seller = { "@type": "Organization", name: post.store.title };
  const product: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: post.title,
    description: summary(post),
    url: pageUrl,
    sku: post.unique_id,
    offers: offer,
  };
  if (post.image_url) product.image = [absolute(publicUrl, post.image_url)];
  if (post.category) product.category = post.category.title;
  if (post.store) product.brand = { "@type": "Brand", name: post.store.title };
  return product;
}

/** An educator post as a DiscussionForumPosting. */
export function discussionJsonLd(post: ProductDetails, publicUrl: string, pageUrl: string) {
  const posting: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "DiscussionForumPosting",
    headline: post.title,
    text: summary(post),
    url: pageUrl,
    mainEntityOfPage: pageUrl,
    datePublished: post.created_at,
    dateModified: post.updated_at,
    author: post.user
      ? {
          "@type": "Person",
          name: post.user.name,
          url: absolute(publicUrl, `/profile/${post.user.id}`),
        }
      : { "@type": "Person", name: post.user_name || "Former member" },
    commentCount: post.comments_count,
    interactionStatistic: [
      {
        "@type": "InteractionCounter",
        interactionType: "https://schema.org/LikeAction",
        userInteractionCount: post.likes,
      },
      {
        "@type": "InteractionCounter",
        interactionType: "https://schema.org/CommentAction",
        userInteractionCount: post.comments_count,
      },
    ],
  };
  if (post.image_url) posting.image = absolute(publicUrl, post.image_url);
  return posting;
}
