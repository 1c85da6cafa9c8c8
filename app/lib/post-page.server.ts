import { redirect, type RouterContextProvider } from "react-router";
import { requestContext } from "#app-context";
import { orNull } from "../../core/not-found.ts";
import { discussionJsonLd, productJsonLd } from "../../core/seo/structured-data.ts";
import type { Crumb } from "../components/Breadcrumbs.tsx";
import { notFound } from "./errors.ts";
import { pageClock } from "../../core/time/page-clock.ts";

/** The loader and head shared by the deal page (/post/…) and the educator post page (/educator/…). */

export type PostVariant = "deal" | "educator";

interface PostLoaderArgs {
  context: Readonly<RouterContextProvider>;
  params: { uniqueId?: string; slug?: string };
  request: Request;
}

function crumbsFor(
  variant: PostVariant,
  post: { title: string; store: { title: string; slug: string } | null },
): Crumb[] {
  if (variant === "educator") {
    return [
      { label: "Home", to: "/" },
      { label: "Forums", to: "/forum" },
      { label: "Educators", to: "/educator" },
      { label: post.title },
    ];
  }
  const parent = post.store
    ? { label: post.store.title, to: `/store/${post.store.slug}` }
    : { label: "New Deals", to: "/newdeals" };
  return [{ label: "Home", to: "/" }, parent, { label: post.title }];
}

/**
 * Loads a post page: 404 for an unknown post, a permanent redirect to the canonical address for a
 * post reached by an old slug or under the other kind of page, and the view counted once a day.
 */
export async function loadPostPage(
  { context, params, request }: PostLoaderArgs,
  variant: PostVariant,
) {
  const { services, user, clientIp, publicConfig, csrfToken } = context.get(requestContext);
  const uniqueId = params.uniqueId ?? "";
  // The deal's own panels are asked for with the post, not after it: the embedded database
  // answers one query at a time, and each wait for the page's thread between two lookups is a
  // turn of its event loop, which other pages being rendered can hold up. Both answer null for a
  // post that is not a public deal, and are dropped with the page when there is none.
  const [found, expiry, saved] = await Promise.all([
    orNull(
      services.posts.details({
        uniqueId,
        viewer: user,
        visitor: { ip: clientIp, userAgent: request.headers.get("user-agent") ?? undefined },
      }),
    ),
    variant === "deal" ? services.expiry.status(uniqueId, user) : null,
    variant === "deal" && user ? services.saved.isSaved(user, uniqueId) : null,
  ]);
  const details = found ?? notFound();
  const post = details.product_details;
  if (!user && !details.moderation) {
    // A visitor served this page from the page cache is counted as this one was.
    const { onPageCacheHit } = context.get(requestContext);
    onPageCacheHit((visitor) => services.posts.countVisitorView(post.id, visitor));
  }
  const expectedType = variant === "deal" ? "d" : "g";
  if (post.post_type !== expectedType || params.slug !== post.slug) {
    throw redirect(post.path, 301);
  }

  const canonicalUrl = `${publicConfig.publicUrl}${post.path}`;
  const crumbs = crumbsFor(variant, post);
  const mainEntity =
    variant === "deal"
      ? productJsonLd(post, publicConfig.publicUrl, canonicalUrl)
      : discussionJsonLd(post, publicConfig.publicUrl, canonicalUrl);

  return {
    details,
    crumbs,
    canonicalUrl,
    /** The page's main schema.org entity: Product (deal with a price) or DiscussionForumPosting. */
    mainEntity,
    // Only a member's page carries the XSRF token of its forms: a visitor's page is kept by the
    // page cache and served to others (server/plugins/page-cache.ts), and its forms cannot post.
    viewer: user ? { id: user.id, image: user.image_url ?? "", csrfToken: csrfToken() } : null,
    now: pageClock(),
    /** The deal's "Expired?" panel (record 0037, app/components/ExpiryPanel.tsx). */
    expiry,
    /** The viewer saved this deal (the Save button); null where there is no button. */
    saved,
  };
}

export type PostPageData = Awaited<ReturnType<typeof loadPostPage>>;
