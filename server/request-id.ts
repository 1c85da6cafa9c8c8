import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyPluginCallback } from "fastify";
import fp from "fastify-plugin";
import { logContext } from "../core/log/logger.ts";

/**
 * Request ids (docs/decisions/0095-one-log-format.md): every log line of a request carries its id
 * under `reqId`, and the answer echoes it in `X-Request-Id`, so a member's report, a proxy's log
 * and ours name the same request.
 */
export const REQUEST_ID_HEADER = "x-request-id";
export const REQUEST_ID_LOG_LABEL = "reqId";

/**
 * An id a proxy or client may hand us: 1 to 128 characters of letters, digits and `.`, `_`, `:`,
 * `-` (UUIDs, and the ids of nginx, Envoy, Heroku and AWS load balancers, fit). Anything else
 * (too long, spaces, quotes, control characters) could forge or break a log line: a new id is made.
 */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the request's well-formed `X-Request-Id`, or a random UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === "string" && WELL_FORMED_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Registered before every other plugin, so that its hook runs first: every answer that Fastify
 * sends (a page from the page cache, a 404, an error, a 503 while the database is away) carries
 * the id, and the rest of the request runs in the log context that names it.
 */
const requestId: FastifyPluginCallback = (app, _options, done) => {
  app.addHook("onRequest", (request, reply, next) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    logContext.run({ [REQUEST_ID_LOG_LABEL]: request.id }, next);
  });
  done();
};

export const requestIdPlugin = fp(requestId, { name: "request-id", fastify: "5.x" });
