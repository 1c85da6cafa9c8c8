import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { orNull } from "../../core/not-found.ts";
import type { Services } from "../../core/services.ts";

const XML = "application/xml; charset=utf-8";
const RSS = "application/rss+xml; charset=utf-8";

function notFound(reply: FastifyReply) {
  return reply.code(404).type("text/plain; charset=utf-8").send("Not Found");
}

/** The slug of `/rss/store/{slug}.xml`; anything else is not a feed. */
function feedSlug(file: string): string | null {
  const match = /^([a-z0-9][a-z0-9-]{0,199})\.xml$/i.exec(file);
  return match ? match[1]! : null;
}

/**
 * Discovery files for crawlers and feed readers: robots.txt, the sitemap index and its chunks, RSS
 * feeds of new deals and of each store and category (docs/decisions/0012-discovery-and-public-pages.md).
 * Public and cacheable: the http-cache plugin adds ETag and Cache-Control from cacheSeconds.
 */
export const feedRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  app.get("/robots.txt", { config: { cacheSeconds: 3600 } }, async (_request, reply) =>
    reply.type("text/plain; charset=utf-8").send(services.seo.robots()),
  );

  app.get("/sitemap.xml", { config: { cacheSeconds: 3600 } }, async (_request, reply) =>
    reply.type(XML).send(await services.seo.sitemapIndex()),
  );

  app.get<{ Params: { file: string } }>(
    "/sitemaps/:file",
    { config: { cacheSeconds: 3600 } },
    async (request, reply) => {
      const name = /^([a-z]+(?:-\d{1,6})?)\.xml$/.exec(request.params.file)?.[1];
      const xml = name ? await services.seo.sitemap(name) : null;
      return xml ? reply.type(XML).send(xml) : notFound(reply);
    },
  );

  app.get("/rss/newdeals.xml", { config: { cacheSeconds: 600 } }, async (_request, reply) => {
    const settings = await services.settings.get();
    return reply.type(RSS).send(await services.seo.newDealsFeed(settings.websiteName));
  });

  // A short, guessable address for the new-deals feed; the feed itself lives at one URL.
  app.get("/feed", async (_request, reply) => reply.redirect("/rss/newdeals.xml", 301));

  app.get<{ Params: { file: string } }>(
    "/rss/store/:file",
    { config: { cacheSeconds: 600 } },
    async (request, reply) => {
      const slug = feedSlug(request.params.file);
      const store = slug ? await orNull(services.catalog.storeBySlug(slug)) : null;
      if (!store) return notFound(reply);
      // An old slug of a renamed store: its feed moved for good.
      if (store.slug !== slug) return reply.redirect(`/rss/store/${store.slug}.xml`, 301);
      const settings = await services.settings.get();
      return reply.type(RSS).send(await services.seo.storeFeed(store, settings.websiteName));
    },
  );

  app.get<{ Params: { file: string } }>(
    "/rss/category/:file",
    { config: { cacheSeconds: 600 } },
    async (request, reply) => {
      const slug = feedSlug(request.params.file);
      const category = slug ? await orNull(services.catalog.categoryBySlug(slug)) : null;
      if (!category) return notFound(reply);
      if (category.slug !== slug) return reply.redirect(`/rss/category/${category.slug}.xml`, 301);
      const settings = await services.settings.get();
      return reply.type(RSS).send(await services.seo.categoryFeed(category, settings.websiteName));
    },
  );
};
