import { HealthResponse } from "../../core/responses.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/**
 * Health for load balancers: `status` "ok" and `database` "up", or 503 with "unavailable" and
 * "down" while the database does not answer. The database is asked at most once a second
 * (db/faults.ts), so the benchmark's baseline stays a trivial route.
 */
export const healthApi: ApiModule = async (app) => {
  apiRoute(app, {
    method: "GET",
    url: "/health",
    tag: "Site",
    summary: "Health check: the process serves and the database answers (503 when it does not)",
    response: HealthResponse,
    handler: async ({ request, reply }) => {
      const database = await request.server.database.state();
      if (database === "down") reply.code(503);
      return { status: database === "up" ? "ok" : "unavailable", database };
    },
  });
};
