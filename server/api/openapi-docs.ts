import { z } from "zod";
import { failureBodySchema } from "./errors.ts";
import type { ApiModule, ApiRoute } from "./route.ts";
import { apiRoutes } from "./route.ts";

const json = (schema: z.ZodType, io: "input" | "output") => ({
  "application/json": { schema: z.toJSONSchema(schema, { io, unrepresentable: "any" }) },
});

/** The failures a call may answer with, each in the call's failure shape. */
function failureResponses(route: ApiRoute) {
  const body = json(failureBodySchema(route.failure), "output");
  const failures: Record<string, { description: string; content: typeof body }> = {
    ...(route.body
      ? { 422: { description: "Invalid input: one message per field in errors", content: body } }
      : {}),
    ...(route.auth
      ? {
          401: { description: "Not signed in", content: body },
          403: {
            description:
              typeof route.auth === "string" ? `Needs the ${route.auth} role` : "Not allowed",
            content: body,
          },
        }
      : {}),
    ...(route.rateLimit
      ? { 429: { description: "Too many requests (Retry-After)", content: body } }
      : {}),
    "4XX": { description: "Any other refusal (the message says why)", content: body },
  };
  return failures;
}

function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of apiRoutes) {
    const operation: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      responses: {
        [route.successStatus ?? 200]: {
          description: "Success",
          content: json(route.response, "output"),
        },
        ...failureResponses(route),
      },
    };
    if (route.body && route.method === "GET") {
      // A GET call reads its schema's fields from the query string.
      const schema = z.toJSONSchema(route.body, { io: "input", unrepresentable: "any" });
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      operation.parameters = Object.entries(properties).map(([name, property]) => ({
        name,
        in: "query",
        required: false,
        schema: property,
      }));
    } else if (route.body) {
      const schema = z.toJSONSchema(route.body, { io: "input", unrepresentable: "any" });
      operation.requestBody = {
        content: { [route.multipart ? "multipart/form-data" : "application/json"]: { schema } },
      };
    }
    if (route.auth) operation.security = [{ session: [] }, { bearer: [] }];
    if (typeof route.auth === "string") operation["x-role"] = route.auth;
    (paths[`/api${route.url}`] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Chalkboard Deals API",
      version: "1.0.0",
      description:
        "The JSON contract used by the web site and the mobile apps. POST, PUT, PATCH and DELETE calls " +
        "made with the session cookie must echo the XSRF-TOKEN cookie in the X-XSRF-TOKEN header; " +
        "that cookie is set with the session at sign-in and on any signed-in answer that lacks it.",
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

export const openApiDocs: ApiModule = async (app) => {
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get("/docs", async () => (document ??= openApiDocument()));
};
