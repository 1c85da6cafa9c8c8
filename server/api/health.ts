import { z } from "zod";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

const HealthResponse = z
  .strictObject({ status: z.enum(["ok", "unavailable"]), database: z.enum(["up", "down"]) })
  .describe("Liveness; more fields describe the parts the server depends on");

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
