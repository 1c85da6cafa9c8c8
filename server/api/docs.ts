import { z } from "zod";
import type { ApiModule } from "./route.ts";
import { apiRoutes } from "./route.ts";

function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of apiRoutes) {
    const operation: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      responses: {
        200: { description: "Success" },
        ...(route.body
          ? { 422: { description: "Invalid input: { status: false, message, errors }" } }
          : {}),
        ...(route.auth
          ? { 401: { description: "Not signed in" }, 403: { description: "Not allowed" } }
          : {}),
        ...(route.rateLimit ? { 429: { description: "Too many requests (Retry-After)" } } : {}),
      },
    };
    if (route.body) {
      const schema = z.toJSONSchema(route.body, { io: "input", unrepresentable: "any" });
      operation.requestBody = {
        content: { [route.multipart ? "multipart/form-data" : "application/json"]: { schema } },
      };
    }
    if (route.auth) operation.security = [{ session: [] }, { bearer: [] }];
    (paths[`/api${route.url}`] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Chalkboard Deals API",
      version: "1.0.0",
      description:
        "The JSON contract used by the web site and the mobile apps. POST, PUT, PATCH and DELETE calls " +
        "made with the session cookie must echo the XSRF-TOKEN cookie in the X-XSRF-TOKEN header.",
    },
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "loginTokenChalkboard" },
        bearer: { type: "http", scheme: "bearer" },
      },
    },
    paths,
  };
}

export const openApiDocs: ApiModule = (app) => {
  app.get("/docs", async () => openApiDocument());
};
