import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * Status logged for an answer the client did not wait for (as nginx logs it): nothing reaches
 * the client, and the line in the log says why the request ended.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/** Errors that mean the other side of the connection went away, not that anything failed here. */
const GONE_CODES = new Set(["ERR_STREAM_PREMATURE_CLOSE", "ECONNRESET", "EPIPE"]);

/**
 * Whether `error` only says the client went away before its answer was sent: a browser that
 * navigated on or was closed while a response (compressed on its way out) was still being
 * written. Such an error is logged as information, not as a failure of the server.
 */
export function isClientGone(error: unknown, request: FastifyRequest): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // The client's own socket must be gone too: a database connection reset is no such case.
  const socket = request.raw.socket as { destroyed?: boolean } | null;
  return typeof code === "string" && GONE_CODES.has(code) && (!socket || socket.destroyed === true);
}

/** Ends a request whose client went away: an info line, and a 499 that reaches no one. */
export function endForGoneClient(request: FastifyRequest, reply: FastifyReply) {
  request.log.info({ url: request.url }, "the client closed the connection before its answer");
  return reply.code(CLIENT_CLOSED_REQUEST).send();
}
