import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import { AppError } from "../../core/http/errors.ts";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "../../db/faults.ts";

/** The JSON error convention of DESIGN.md. A client's mistake is never a 500. */
export function registerApiErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .code(error.statusCode)
        .send({ status: false, message: error.message, ...error.body });
    }
    if (error instanceof ZodError) {
      const errors: Record<string, string> = {};
      for (const issue of error.issues) errors[issue.path.join(".") || "_"] ??= issue.message;
      return reply.code(422).send({ status: false, message: Object.values(errors)[0], errors });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        status === 413
          ? "The request is too large."
          : status === 429
            ? error.message
            : error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE"
              ? "Unsupported content type."
              : status === 400 && /JSON/i.test(error.message)
                ? "Malformed JSON in the request body."
                : error.message;
      return reply.code(status).send({ status: false, message });
    }
    if (isDatabaseUnavailable(error)) {
      // Retry-After is added to every 503 (server/database-faults.ts).
      request.log.warn({ err: error }, "database unavailable");
      return reply.code(503).send({ status: false, message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    request.log.error({ err: error }, "request failed");
    return reply
      .code(500)
      .send({ status: false, message: "Something went wrong. Please try again later." });
  });

  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).send({ status: false, message: "No such API call." }),
  );
}
