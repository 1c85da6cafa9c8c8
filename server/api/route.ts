import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Services } from "../../core/services.ts";
import type { RouteRateLimit } from "../plugins/rate-limit.ts";

export interface ApiRoute {
  method: "GET" | "POST";
  /** Path below /api, e.g. "/home". */
  url: string;
  summary: string;
  tag: string;
  /** The shared schema the handler validates with; documented in /api/docs. */
  body?: z.ZodType;
  multipart?: boolean;
  /** The call needs a signed-in user (401 without one). */
  auth?: boolean;
  rateLimit?: RouteRateLimit;
  /** Public, cacheable GET answer: Cache-Control + ETag (see server/plugins/http-cache.ts). */
  cacheSeconds?: number;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** Every registered call, for the OpenAPI document. */
export const apiRoutes: ApiRoute[] = [];

export type ApiModule = (app: FastifyInstance, services: Services) => void;

/** Registers one call of the JSON API and records it for /api/docs. */
export function apiRoute(app: FastifyInstance, route: ApiRoute) {
  if (!apiRoutes.some((r) => r.method === route.method && r.url === route.url))
    apiRoutes.push(route);
  app.route({
    method: route.method,
    url: route.url,
    config: {
      ...(route.rateLimit ? { rateLimit: route.rateLimit } : {}),
      cacheSeconds: route.cacheSeconds,
    },
    handler: async (request, reply) => {
      if (route.auth && !request.user) {
        return reply.code(401).send({ status: false, message: "Please log in first." });
      }
      return route.handler(request, reply);
    },
  });
}

declare module "fastify" {
  interface FastifyContextConfig {
    cacheSeconds?: number;
  }
}
