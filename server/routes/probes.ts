import type { FastifyPluginAsync, FastifyReply } from "fastify";
import type { DatabaseReadiness } from "../../db/readiness.ts";

/**
 * Liveness and readiness for load balancers, compose and Kubernetes
 * (docs/decisions/0093-health-and-readiness.md, docs/deploy.md "Health and readiness").
 *
 * - `GET /healthz`: 200 while the process answers at all. It touches nothing else, so a busy or
 *   lost database never gets a live process restarted.
 * - `GET /readyz`: 200 `{"status":"ready"}` when the database answers, its schema is current and
 *   the process is not draining after SIGTERM (server/shutdown.ts); otherwise 503
 *   `{"status":"unready","reason":…}`. The database is asked on a connection apart from the app's
 *   pool, at most once a second (db/readiness.ts).
 *
 * Both are `no-store`, set no cookie (the session and page-cache plugins pass them by, see
 * PROBE_PATHS) and have no rate limit. `/api/health` stays as it is, for the apps.
 */

/** The probes' paths, which the session lookup and the page cache leave alone. */
export const PROBE_PATHS = /^\/(healthz|readyz)(\?|$)/;

export type UnreadyReason = "draining" | "database" | "migrations";

export type ReadinessAnswer = { status: "ready" } | { status: "unready"; reason: UnreadyReason };

function noStore(reply: FastifyReply) {
  return reply.header("cache-control", "no-store").type("application/json; charset=utf-8");
}

export const probeRoutes: FastifyPluginAsync<{ readiness: DatabaseReadiness }> = async (
  app,
  { readiness },
) => {
  app.get("/healthz", { config: { rateLimit: false } }, async (_request, reply) => {
    noStore(reply);
    return { status: "ok" };
  });

  app.get("/readyz", { config: { rateLimit: false } }, async (_request, reply) => {
    noStore(reply);
    const answer = await readinessAnswer(() => app.draining, readiness);
    if (answer.status !== "ready") reply.code(503);
    return answer;
  });
};

/** Draining first: a process that is closing is not ready, whatever its database says. */
export async function readinessAnswer(
  draining: () => boolean,
  readiness: DatabaseReadiness,
): Promise<ReadinessAnswer> {
  if (draining()) return { status: "unready", reason: "draining" };
  const database = await readiness.check();
  // SIGTERM may have come while the database was asked.
  if (draining()) return { status: "unready", reason: "draining" };
  return database === "ready" ? { status: "ready" } : { status: "unready", reason: database };
}
