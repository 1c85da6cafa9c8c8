import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { requireRole, type StaffRole } from "../../core/auth/policy.ts";
import { UnauthenticatedError, ValidationError } from "../../core/errors.ts";
import type { Services } from "../../core/services.ts";
import { issuesToFieldErrors } from "../../core/validation.ts";
import type { RouteRateLimit } from "../plugins/rate-limit.ts";
import type { FailureShape } from "./errors.ts";
import { readForm } from "./multipart-form.ts";

type BodySchema = z.ZodType | undefined;

/** What a handler receives: the body as its schema's output, already checked. */
export interface ApiCall<Body extends BodySchema> {
  input: Body extends z.ZodType ? z.output<Body> : undefined;
  /** The image file of a multipart call, when one was chosen. */
  file?: Buffer;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A response type as presenters build it: plain objects, whose `status: "true"` TypeScript reads as
 * a string. The type check holds handlers to the schema's fields and their kinds; the exact values
 * (literals, enums) are checked at run time by the contract test.
 */
type Widened<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends readonly (infer Item)[]
        ? Widened<Item>[]
        : T extends object
          ? { [Key in keyof T]: Widened<T[Key]> }
          : T;

export interface ApiRouteDefinition<Body extends BodySchema, Response extends z.ZodType> {
  method: "GET" | "POST";
  /** Path below /api, e.g. "/home". */
  url: string;
  summary: string;
  tag: string;
  /**
   * The shared schema of core/<feature>/schema.ts the body is parsed with before the handler runs;
   * a GET call's query string is parsed with it instead (filters and pages of the console's lists).
   */
  body?: Body;
  /** What a success answers: shown at /api/docs, checked by tests/integration/api-contract.test.ts. */
  response: Response;
  /** The HTTP status of a success (200 unless the spec says otherwise). */
  successStatus?: 200 | 201;
  /**
   * A multipart/form-data call with one optional image: the file's field, and the message for a
   * file over the size limit. The text fields are parsed with `body` like a JSON body.
   */
  multipart?: { fileField: string; tooLargeMessage: string };
  /**
   * The call needs a signed-in user (401 without one); "moderator" or "admin" also needs that role
   * or a higher one (403 otherwise). Every /api/admin/* call names its role.
   */
  auth?: boolean | StaffRole;
  /** The spec's own failure shape for this call (server/api/errors.ts); the site's otherwise. */
  failure?: FailureShape;
  rateLimit?: RouteRateLimit;
  /** Public, cacheable GET answer: Cache-Control + ETag (see server/plugins/http-cache.ts). */
  cacheSeconds?: number;
  handler: (call: ApiCall<Body>) => Promise<NoInfer<Widened<z.input<Response>>>>;
}

/** A registered call as /api/docs and the contract tests see it. */
export type ApiRoute = Omit<ApiRouteDefinition<BodySchema, z.ZodType>, "handler">;

/** Every registered call, for the OpenAPI document and the contract tests. */
export const apiRoutes: ApiRoute[] = [];

/**
 * A group of calls: a Fastify plugin, registered inside the /api plugin (server/api/index.ts),
 * given the services.
 */
export type ApiModule = FastifyPluginAsync<{ services: Services }>;

/** The body as the route's schema reads it; a missing body reads as `{}`. */
function parseBody<Body extends z.ZodType>(schema: Body, body: unknown): z.output<Body> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw new ValidationError(issuesToFieldErrors(result.error.issues));
  return result.data;
}

/**
 * Registers one call of the JSON API and records it for /api/docs: checks the session when the call
 * needs one, reads a multipart form, parses the body with the route's schema (422 with one message
 * per field on failure) and hands the handler typed input. Failures are answered by
 * server/api/errors.ts in the route's failure shape.
 */
export function apiRoute<Response extends z.ZodType, Body extends BodySchema = undefined>(
  app: FastifyInstance,
  route: ApiRouteDefinition<Body, Response>,
) {
  const { handler, ...description } = route;
  if (!apiRoutes.some((r) => r.method === route.method && r.url === route.url)) {
    apiRoutes.push(description);
  }
  app.route({
    method: route.method,
    url: route.url,
    config: {
      ...(route.rateLimit ? { rateLimit: route.rateLimit } : {}),
      cacheSeconds: route.cacheSeconds,
      failure: route.failure,
    },
    handler: async (request, reply) => {
      if (route.auth === true && !request.user) throw new UnauthenticatedError();
      if (typeof route.auth === "string") requireRole(request.user, route.auth);
      let body: unknown = route.method === "GET" ? request.query : request.body;
      let file: Buffer | undefined;
      if (route.multipart) {
        const form = await readForm(
          request,
          route.multipart.fileField,
          route.multipart.tooLargeMessage,
        );
        body = form.fields;
        file = form.file;
      }
      const input = (
        route.body ? parseBody(route.body, body) : undefined
      ) as ApiCall<Body>["input"];
      const answer = await handler({ input, file, request, reply });
      if (route.successStatus) reply.code(route.successStatus);
      return answer;
    },
  });
}

declare module "fastify" {
  interface FastifyContextConfig {
    cacheSeconds?: number;
    failure?: FailureShape;
  }
}
