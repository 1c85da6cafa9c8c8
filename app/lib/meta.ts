import type { MetaArgs, MetaDescriptor } from "react-router";
import { DEFAULT_SETTINGS } from "../../core/settings/defaults.ts";
import type { RootLoaderData } from "../root.tsx";

export interface PageMeta {
  /** The page's own title; omitted, the site's name (the home page). */
  title?: string;
  description?: string;
  /** Path of the page's canonical URL, e.g. "/store/target". */
  path?: string;
  image?: string;
  /** Open Graph type: "website" (default) or "article"/"product". */
  type?: string;
  noindex?: boolean;
  /** The page's RSS feed, announced for feed readers. */
  feed?: { title: string; path: string };
  /** Extra descriptors (JSON-LD, article times, …). */
  extra?: MetaDescriptor[];
}

/** A meta function's matches; route-typed matches may hold undefined entries past the known ones. */
type Matches = ReadonlyArray<MetaArgs["matches"][number] | undefined>;

/** The root route's loader data (settings, user, public config) from a meta function's matches. */
export function rootLoaderData(matches: Matches): RootLoaderData | undefined {
  return matches.find((m) => m?.id === "root")?.loaderData as RootLoaderData | undefined;
}

function absolute(base: string, url: string): string {
  if (!url) return url;
  try {
    return new URL(url, base + "/").toString();
  } catch {
    return url;
  }
}

/**
 * The head of a page: its own title, a description (the settings' default where the page has none),
 * canonical URL, Open Graph and Twitter card tags. Pass the meta function's `matches`.
 */
export function pageMeta(matches: Matches, page: PageMeta): MetaDescriptor[] {
  const root = rootLoaderData(matches);
  const settings = root?.settings ?? DEFAULT_SETTINGS;
  const siteName = settings.websiteName;
  const base = root?.publicConfig.publicUrl ?? "";
  const pageTitle = page.title ?? siteName;
  const title = pageTitle === siteName ? siteName : `${pageTitle} | ${siteName}`;
  const description = (page.description || settings.description).slice(0, 300);
  const canonical = page.path !== undefined ? absolute(base, page.path) : undefined;
  const image = page.image
    ? absolute(base, page.image)
    : settings.logo
      ? absolute(base, settings.logo)
      : undefined;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { property: "og:site_name", content: siteName },
    { property: "og:title", content: pageTitle },
    { property: "og:description", content: description },
    { property: "og:type", content: page.type ?? "website" },
    { name: "twitter:card", content: page.image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: pageTitle },
    { name: "twitter:description", content: description },
  ];
  if (settings.keywords) tags.push({ name: "keywords", content: settings.keywords });
  if (canonical) {
    tags.push({ tagName: "link", rel: "canonical", href: canonical });
    tags.push({ property: "og:url", content: canonical });
  }
  if (image) {
    tags.push({ property: "og:image", content: image });
    tags.push({ name: "twitter:image", content: image });
  }
  if (page.noindex) tags.push({ name: "robots", content: "noindex" });
  if (page.feed) {
    tags.push({
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: page.feed.title,
      href: absolute(base, page.feed.path),
    });
  }
  return [...tags, ...(page.extra ?? [])];
}
