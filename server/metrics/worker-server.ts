import http from "node:http";
import { METRICS_PATH } from "../plugins/metrics.ts";
import { mayReadMetrics } from "./access.ts";
import { createSiteMetrics, type MetricsSources } from "./registry.ts";

export interface WorkerMetricsOptions extends MetricsSources {
  port: number;
  host: string;
  /** METRICS_TOKEN. */
  token?: string;
}

/**
 * `npm run worker`'s metrics on METRICS_PORT (docs/decisions/0094-metrics.md): the job, mail, pool
 * and process families, at /metrics, under the same rule as the site's (server/metrics/access.ts).
 * The worker serves no pages, so a bare node:http server does; anything else is a 404.
 */
export async function serveWorkerMetrics(
  options: WorkerMetricsOptions,
): Promise<{ port: number; close(): Promise<void> }> {
  const metrics = createSiteMetrics({ ...options, requests: false });
  const server = http.createServer((request, response) => {
    const path = (request.url ?? "").split("?", 1)[0];
    const allowed =
      (request.method === "GET" || request.method === "HEAD") &&
      path === METRICS_PATH &&
      mayReadMetrics(request.socket.remoteAddress, request.headers, options.token);
    const answer = (status: number, type: string, body: string) => {
      response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      response.end(request.method === "HEAD" ? undefined : body);
    };
    if (!allowed) return answer(404, "text/plain; charset=utf-8", "Not Found");
    metrics.text().then(
      (text) => answer(200, metrics.contentType, text),
      () => answer(503, "text/plain; charset=utf-8", "Metrics unavailable\n"),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        metrics.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
