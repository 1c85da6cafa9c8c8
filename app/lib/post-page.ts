import type { MetaDescriptor } from "react-router";
import { excerpt } from "../../core/seo/text.ts";
import { breadcrumbJsonLd } from "../components/Breadcrumbs.tsx";
import type { PostPageData, PostVariant } from "./post-page.server.ts";
import { pageMeta, rootLoaderData } from "./meta.ts";

/** Title, description, canonical, Open Graph / Twitter card and JSON-LD of a post page. */
export function postPageMeta(
  matches: Parameters<typeof pageMeta>[0],
  loaderData: PostPageData | undefined,
  variant: PostVariant,
): MetaDescriptor[] {
  if (!loaderData) return pageMeta(matches, { title: "Page Not Found", noindex: true });
  const post = loaderData.details.product_details;
  const publicUrl = rootLoaderData(matches)?.publicConfig.publicUrl ?? "";
  const extra: MetaDescriptor[] = [breadcrumbJsonLd(loaderData.crumbs, publicUrl, post.path)];
  if (loaderData.mainEntity) extra.unshift({ "script:ld+json": loaderData.mainEntity });
  if (variant === "educator") {
    extra.push({ property: "article:published_time", content: post.created_at });
    extra.push({ property: "article:modified_time", content: post.updated_at });
  } else {
    extra.push({
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: "New deals",
      href: "/rss/newdeals.xml",
    });
    if (post.store) {
      extra.push({
        tagName: "link",
        rel: "alternate",
        type: "application/rss+xml",
        title: `${post.store.title} deals`,
        href: `/rss/store/${post.store.slug}.xml`,
      });
    }
    if (post.price !== null) {
      extra.push({ property: "product:price:amount", content: post.price.toFixed(2) });
      extra.push({ property: "product:price:currency", content: post.currency });
    }
  }
  return pageMeta(matches, {
    title: post.is_expired && variant === "deal" ? `${post.title} (expired)` : post.title,
    description: excerpt(post.description_text),
    path: post.path,
    image: post.image_url || undefined,
    type: variant === "deal" ? "product" : "article",
    extra,
  });
}
