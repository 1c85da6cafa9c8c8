import cluster from "node:cluster";
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { mayReadMetrics } from "../metrics/access.ts";
import { askPrimary, offerToPrimary } from "../metrics/cluster.ts";
import { createSiteMetrics, processMetrics, type MetricsSources } from "../metrics/registry.ts";

export const METRICS_PATH = "/metrics";

/** React Router's catch-all route (@mcansh/react-router-fastify): every page and its data. */
const PAGES_ROUTE = new Set(["*", "/*"]);

/**
 * The label of the route that answered: Fastify's route template, never the raw URL; for a page,
 * its React Router pattern (server/metrics/page-routes.ts). The client build's hashed files are
 * one route each, new names at every build, so they count as one.
 */
function routeLabel(request: FastifyRequest, pageRoute?: (url: string) => string): string {
  const template = request.routeOptions.url;
  if (template === undefined) return "(no route)";
  if (PAGES_ROUTE.has(template)) return pageRoute ? pageRoute(request.url) : "(page)";
  if (template.startsWith("/assets/")) return "/assets/*";
  return template;
}

/**
 * GET /metrics in Prometheus's text format, and the counts of every request
 * (docs/decisions/0094-metrics.md). Registered before the routes, so that its hook sees them all.
 * Only loopback or METRICS_TOKEN may read it (server/metrics/access.ts); anyone else is told
 * there is nothing here. Never stored by a cache, never rate limited. Under node:cluster a scrape
 * answers the sum of every server process (server/metrics/cluster.ts).
 */
export const metricsPlugin = fp<{
  sources: MetricsSources;
  /** METRICS_TOKEN. */
  token?: string;
  /** A page URL's React Router pattern; without it (no build) pages count as "(page)". */
  pageRoute?: (url: string) => string;
}>(
  async (app, options) => {
    const metrics = createSiteMetrics(options.sources);
    app.addHook("onClose", async () => metrics.close());
    const inCluster = cluster.isWorker;
    if (inCluster) offerToPrimary([processMetrics(), metrics.registry]);

    app.addHook("onResponse", async (request, reply) => {
      const route = routeLabel(request, options.pageRoute);
      metrics.request(
        { method: request.method, route, status: reply.statusCode },
        reply.elapsedTime / 1000,
      );
      // The page cache looks up every anonymous GET it might hold (server/plugins/page-cache.ts);
      // only those that reached a page, or were answered from the cache, are its hits and misses.
      const cached = request.pageCache;
      if (cached && "hit" in cached) metrics.pageCache("hit");
      else if (cached && PAGES_ROUTE.has(request.routeOptions.url ?? "")) metrics.pageCache("miss");
    });

    app.get(METRICS_PATH, { config: { rateLimit: false } }, async (request, reply) => {
      reply.header("cache-control", "no-store");
      if (!mayReadMetrics(request.socket.remoteAddress, request.headers, options.token)) {
        return reply.code(404).type("text/plain; charset=utf-8").send("Not Found");
      }
      let text: string;
      try {
        text = inCluster ? await askPrimary() : await metrics.text();
      } catch (error) {
        request.log.error({ msg: "metrics could not be gathered", err: error });
        return reply.code(503).type("text/plain; charset=utf-8").send("Metrics unavailable\n");
      }
      return reply.type(metrics.contentType).send(text);
    });
  },
  { name: "metrics" },
);
