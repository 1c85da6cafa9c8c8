import { TtlCache } from "../cache/ttl-cache.ts";
import { RSS_ITEM_LIMIT, SITEMAP_CHUNK_SIZE } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { cmsPagePath } from "../cms/paths.ts";
import { postPath } from "../posts/paths.ts";
import { robotsTxt, rssXml, sitemapIndexXml, urlsetXml, type SitemapEntry } from "./presenter.ts";
import * as repo from "./repository.ts";

/** The public pages that are not items of a table, in the "pages" sitemap. */
const SITE_PAGES = [
  "/",
  "/newdeals",
  "/store",
  "/category",
  "/forum",
  "/educator",
  "/contact",
  "/privacy-policy",
  "/install",
];

/** Sitemap file names: `pages`, or a kind and a chunk number (`deals-0`, `stores-2`). */
const CHUNKED = { deals: "d", forum: "g", stores: "stores", categories: "categories" } as const;
type ChunkedKind = keyof typeof CHUNKED;
const SITEMAP_NAME = /^(deals|forum|stores|categories)-(\d{1,6})$/;

/** What a feed is about, as the caller found it (an unknown store or category is a 404 there). */
export interface FeedSubject {
  title: string;
  slug: string;
  description: string;
  id: number;
}

/**
 * robots.txt, the sitemap index and its chunks, and the RSS feeds
 * (docs/decisions/0012-discovery-and-public-pages.md). Chunks are id ranges of SITEMAP_CHUNK_SIZE,
 * so each holds fewer than 50,000 URLs and is read by one primary-key range scan.
 */
export function createSeoService({ db, config, now, changes }: Deps) {
  const publicUrl = config.publicUrl;
  const size = SITEMAP_CHUNK_SIZE;
  // The index groups every live post by chunk: one scan, kept for ten minutes or until posts,
  // stores or categories change.
  const index = new TtlCache<string>(10 * 60_000, 1);
  changes.on(["posts", "catalog"], () => index.clear());
  const sitemapUrl = (name: string) => `${publicUrl}/sitemaps/${name}.xml`;

  async function buildIndex(): Promise<string> {
    const [dealChunks, forumChunks, storeChunks, categoryChunks, newestDeal, newestForumPost] =
      await Promise.all([
        repo.findPostChunks(db, "d", size),
        repo.findPostChunks(db, "g", size),
        repo.findCatalogChunks(db, "stores", size),
        repo.findCatalogChunks(db, "categories", size),
        repo.findNewestPostTime(db, "d"),
        repo.findNewestPostTime(db, "g"),
      ]);
    const newest = [newestDeal, newestForumPost]
      .filter((d): d is Date => d !== null)
      .sort((a, b) => b.getTime() - a.getTime())[0];
    return sitemapIndexXml([
      { loc: sitemapUrl("pages"), lastmod: newest ?? null },
      ...dealChunks.map((c) => ({ loc: sitemapUrl(`deals-${c.chunk}`), lastmod: c.lastmod })),
      ...forumChunks.map((c) => ({ loc: sitemapUrl(`forum-${c.chunk}`), lastmod: c.lastmod })),
      ...(await catalogChunkEntries("stores", storeChunks)),
      ...(await catalogChunkEntries("categories", categoryChunks)),
    ]);
  }

  async function pagesSitemap(): Promise<string> {
    const [newestDeal, newestForumPost, cmsPages] = await Promise.all([
      repo.findNewestPostTime(db, "d"),
      repo.findNewestPostTime(db, "g"),
      repo.findCmsPageDates(db),
    ]);
    const lastmodOf: Record<string, Date | null> = {
      "/": newestDeal,
      "/newdeals": newestDeal,
      "/forum": newestForumPost,
      "/educator": newestForumPost,
    };
    // The owner's pages: the privacy policy (listed above) dated by its last edit, and the others.
    for (const page of cmsPages) lastmodOf[cmsPagePath(page.slug)] = page.updated_at;
    const pagePaths = cmsPages
      .map((page) => cmsPagePath(page.slug))
      .filter((path) => !SITE_PAGES.includes(path));
    return urlsetXml(
      [...SITE_PAGES, ...pagePaths].map((path) => ({
        loc: `${publicUrl}${path}`,
        lastmod: lastmodOf[path],
      })),
    );
  }

  /** A store's or category's page changes when a deal is added to it. */
  async function catalogUrls(
    kind: "stores" | "categories",
    chunk: number,
  ): Promise<SitemapEntry[]> {
    const rows =
      kind === "stores"
        ? await repo.findStoresInChunk(db, chunk, size)
        : await repo.findCategoriesInChunk(db, chunk, size);
    const base = kind === "stores" ? "/store/" : "/category/";
    return rows.map((r) => ({
      loc: `${publicUrl}${base}${encodeURIComponent(r.slug)}`,
      lastmod: r.newest_post && r.newest_post > r.created_at ? r.newest_post : r.created_at,
    }));
  }

  /** Index entries of catalogue chunks, each dated by its newest entry. */
  async function catalogChunkEntries(kind: "stores" | "categories", chunks: number[]) {
    const entries: SitemapEntry[] = [];
    for (const chunk of chunks) {
      const urls = await catalogUrls(kind, chunk);
      if (urls.length === 0) continue;
      const lastmod = urls.reduce<Date | null>(
        (latest, u) => (u.lastmod && (!latest || u.lastmod > latest) ? u.lastmod : latest),
        null,
      );
      entries.push({ loc: sitemapUrl(`${kind}-${chunk}`), lastmod });
    }
    return entries;
  }

  async function chunkSitemap(kind: ChunkedKind, chunk: number): Promise<string | null> {
    let urls: SitemapEntry[];
    if (kind === "deals" || kind === "forum") {
      const rows = await repo.findPostsInChunk(db, CHUNKED[kind], chunk, size);
      urls = rows.map((r) => ({ loc: `${publicUrl}${postPath(r)}`, lastmod: r.updated_at }));
    } else {
      urls = await catalogUrls(kind, chunk);
    }
    return urls.length ? urlsetXml(urls) : null;
  }

  function feed(scope: repo.FeedScope, channel: Parameters<typeof rssXml>[0]) {
    return repo
      .findFeedDeals(db, scope, now(), RSS_ITEM_LIMIT)
      .then((rows) => rssXml(channel, rows, publicUrl));
  }

  return {
    robots: () => robotsTxt(publicUrl),
    sitemapIndex: () => index.get("index", buildIndex),
    /** A sitemap file by name (`pages`, `deals-0`, …); null when there is no such file. */
    async sitemap(name: string): Promise<string | null> {
      if (name === "pages") return pagesSitemap();
      const match = SITEMAP_NAME.exec(name);
      if (!match) return null;
      return chunkSitemap(match[1] as ChunkedKind, Number(match[2]));
    },
    newDealsFeed: (siteName: string) =>
      feed(
        { kind: "all" },
        {
          title: `New deals | ${siteName}`,
          link: `${publicUrl}/newdeals`,
          description: `The newest deals and coupons shared on ${siteName}.`,
          selfUrl: `${publicUrl}/rss/newdeals.xml`,
        },
      ),
    storeFeed: (store: FeedSubject, siteName: string) =>
      feed(
        { kind: "store", storeId: store.id },
        {
          title: `${store.title} deals | ${siteName}`,
          link: `${publicUrl}/store/${encodeURIComponent(store.slug)}`,
          description:
            store.description || `The newest ${store.title} deals and coupons on ${siteName}.`,
          selfUrl: `${publicUrl}/rss/store/${encodeURIComponent(store.slug)}.xml`,
        },
      ),
    categoryFeed: (category: FeedSubject, siteName: string) =>
      feed(
        { kind: "category", categoryId: category.id },
        {
          title: `${category.title} deals | ${siteName}`,
          link: `${publicUrl}/category/${encodeURIComponent(category.slug)}`,
          description:
            category.description ||
            `The newest ${category.title} deals and coupons on ${siteName}.`,
          selfUrl: `${publicUrl}/rss/category/${encodeURIComponent(category.slug)}.xml`,
        },
      ),
  };
}

export type SeoService = ReturnType<typeof createSeoService>;
