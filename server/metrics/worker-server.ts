import http from "node:http";
import type { DatabaseReadiness } from "../../db/readiness.ts";
import { METRICS_PATH } from "../plugins/metrics.ts";
import type { UnreadyReason } from "../routes/probes.ts";
import { mayReadMetrics } from "./access.ts";
import { createSiteMetrics, type MetricsSources } from "./registry.ts";

export interface WorkerMetricsOptions extends MetricsSources {
  port: number;
  host: string;
  /** METRICS_TOKEN. */
  token?: string;
  /** The database side of readiness, asked apart from the pool (the handle's, db/readiness.ts). */
  readiness: DatabaseReadiness;
  /** Whether the job queue works jobs now (JobQueue.isWorking). */
  working: () => boolean;
  /** Whether the worker is stopping (after SIGTERM or SIGINT). */
  stopping: () => boolean;
}

/** Why the worker is not ready: the server's reasons, and `jobs` (its queue works no jobs). */
export type WorkerReadinessAnswer =
  { status: "ready" } | { status: "unready"; reason: UnreadyReason | "jobs" };

/**
 * The worker's readiness, with the first reason that holds: `draining` (it is stopping: running
 * jobs finish), `database` and `migrations` (the server's checks, db/readiness.ts), then `jobs`.
 * The database is asked before the queue: when it is down, that is the cause to report.
 */
export async function workerReadinessAnswer(
  options: Pick<WorkerMetricsOptions, "readiness" | "working" | "stopping">,
): Promise<WorkerReadinessAnswer> {
  if (options.stopping()) return { status: "unready", reason: "draining" };
  const database = await options.readiness.check();
  if (options.stopping()) return { status: "unready", reason: "draining" };
  if (database !== "ready") return { status: "unready", reason: database };
  if (!options.working()) return { status: "unready", reason: "jobs" };
  return { status: "ready" };
}

/**
 * `npm run worker`'s port, METRICS_PORT (docs/decisions/0094-metrics.md, 0098): the job, mail,
 * pool and process families at /metrics, under the same rule as the site's
 * (server/metrics/access.ts); and the probes, as the server answers them (server/routes/probes.ts,
 * record 0093), for compose's health check: `GET /healthz` 200 `{"status":"ok"}` while the process
 * answers, `GET /readyz` 200 `{"status":"ready"}` when its database answers with a current schema
 * and its queue works jobs, else 503 `{"status":"unready","reason":…}`. The probes say nothing
 * private, so anyone who reaches the port may ask them. The worker serves no pages, so a bare
 * node:http server does; anything else is a 404.
 */
export async function serveWorkerMetrics(
  options: WorkerMetricsOptions,
): Promise<{ port: number; close(): Promise<void> }> {
  const metrics = createSiteMetrics({ ...options, requests: false });
  const server = http.createServer((request, response) => {
    const path = (request.url ?? "").split("?", 1)[0];
    const answer = (status: number, type: string, body: string) => {
      response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      response.end(request.method === "HEAD" ? undefined : body);
    };
    const json = (status: number, body: object) =>
      answer(status, "application/json; charset=utf-8", JSON.stringify(body));
    const read = request.method === "GET" || request.method === "HEAD";
    if (read && path === "/healthz") return json(200, { status: "ok" });
    if (read && path === "/readyz") {
      workerReadinessAnswer(options).then(
        (ready) => json(ready.status === "ready" ? 200 : 503, ready),
        () => json(503, { status: "unready", reason: "database" }),
      );
      return;
    }
    const allowed =
      read &&
      path === METRICS_PATH &&
      mayReadMetrics(request.socket.remoteAddress, request.headers, options.token);
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
