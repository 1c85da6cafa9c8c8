import cookie from "@fastify/cookie";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { createChangeFeed } from "../../core/cache/changes.ts";
import { pageCachePlugin, pageRenderedFor } from "./page-cache.ts";

/** A page route that tells the cache it rendered `renderedUrl(request.url)`. */
async function appRendering(renderedUrl: (url: string) => string) {
  const app = Fastify();
  await app.register(cookie);
  app.decorateRequest("user", null);
  let renders = 0;
  await app.register(pageCachePlugin, { changes: createChangeFeed(console), enabled: true });
  app.get("/*", async (request, reply) => {
    renders += 1;
    pageRenderedFor(request, `http://localhost:3000${renderedUrl(request.url)}`);
    return reply
      .type("text/html")
      .header("cache-control", "public, max-age=0")
      .send(`<title>${renderedUrl(request.url)}</title>`);
  });
  return { app, renders: () => renders };
}

describe("the page cache keeps a render only under the path it was rendered for", () => {
  it("stores a page rendered for the request's own path and query", async () => {
    const { app, renders } = await appRendering((url) => url);
    await app.inject("/store/walmart?page=2");
    const hit = await app.inject("/store/walmart?page=2");
    expect(hit.body).toBe("<title>/store/walmart?page=2</title>");
    expect(renders()).toBe(1);
    await app.close();
  });

  it("does not store a render of another page under the request's path", async () => {
    const { app, renders } = await appRendering(() => "/privacy-policy");
    await app.inject("/store/walmart");
    await app.inject("/store/walmart");
    expect(renders()).toBe(2);
    await app.close();
  });

  it("does not store a render of the same path with another query", async () => {
    const { app, renders } = await appRendering((url) => `${url}?page=9`);
    await app.inject("/store/walmart");
    await app.inject("/store/walmart");
    expect(renders()).toBe(2);
    await app.close();
  });
});
