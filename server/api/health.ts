import { HealthResponse } from "./responses.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/** Liveness for load balancers and the benchmark's baseline: no database, no work. */
export const healthApi: ApiModule = (app) => {
  apiRoute(app, {
    method: "GET",
    url: "/health",
    tag: "Site",
    summary: "Liveness check",
    response: HealthResponse,
    handler: async () => ({ status: "ok" }),
  });
};
