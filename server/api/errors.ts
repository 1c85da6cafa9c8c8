import type { FastifyError } from "fastify";
import fp from "fastify-plugin";
import { z, ZodError } from "zod";
import { NO_DATA_FOUND } from "../../core/constants.ts";
import {
  DomainError,
  TooManyAttemptsError,
  ValidationError,
  HTTP_STATUS_OF,
} from "../../core/errors.ts";
import { issuesToFieldErrors } from "../../core/validation.ts";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "../../db/faults.ts";
import { endForGoneClient, isClientGone } from "../client-gone.ts";

/**
 * How one call's failures read, where the spec fixes it. Without a shape a failure is the site's
 * usual `{ status: false, message, errors? }` (record 0020). Declared per route (`failure` of
 * apiRoute), applied here.
 */
export interface FailureShape {
  /** The `status` value of every failure of the call (the spec's sign-in reads 'False'). */
  status?: string;
  /** The `status` value of a not-found failure with a message of its own (see NO_DATA_FOUND_BODY). */
  notFoundStatus?: string;
  /** A validation failure sends its `{ field: text }` as `message` too (register reads message.email). */
  fieldMessages?: boolean;
  /** The headline `message` of a validation failure, from its field messages. */
  validationMessage?: (errors: Record<string, string>) => string;
}

/**
 * The spec's one "No Data Found" answer, on every call: an unknown item is status the string
 * 'false' with that message (tests/integration/listings.test.ts, posts.test.ts).
 */
export const NO_DATA_FOUND_BODY = { status: "false", message: NO_DATA_FOUND } as const;

/** The spec's own failure shapes, by the calls that use them. */
export const SPEC_FAILURES = {
  /** `/signin`: status 'False' on failure. */
  signin: { status: "False" },
  /** `/forgot_password`: an unknown address ('Not Email id Found.') is status 'false' too. */
  notFoundFalse: { notFoundStatus: "false" },
  /** `/signup`: the register page shows message.email. */
  register: { fieldMessages: true },
} satisfies Record<string, FailureShape>;

/** The JSON body of a domain error, in the call's failure shape. */
export function failureBody(error: DomainError, shape: FailureShape = {}) {
  const errors = error instanceof ValidationError ? error.errors : undefined;
  const notFound = error.kind === "not_found";
  const noDataFound = notFound && error.message === NO_DATA_FOUND;
  const status =
    (notFound ? shape.notFoundStatus : undefined) ??
    shape.status ??
    (noDataFound ? NO_DATA_FOUND_BODY.status : undefined);
  const headline = errors && shape.validationMessage ? shape.validationMessage(errors) : undefined;
  return {
    ...error.details,
    status: status ?? false,
    message: errors && shape.fieldMessages ? errors : (headline ?? error.message),
    ...(errors ? { errors } : {}),
  };
}

/** The failure bodies a call may answer with, for /api/docs and the tests. */
export function failureBodySchema(shape: FailureShape = {}) {
  const statuses = [shape.status, shape.notFoundStatus].filter((s) => s !== undefined);
  const fieldMessages = z.record(z.string(), z.string());
  const shaped = z.looseObject({
    status: statuses.length
      ? z.union([z.literal(false), ...statuses.map((s) => z.literal(s))])
      : z.literal(false),
    message: shape.fieldMessages ? z.union([z.string(), fieldMessages]) : z.string(),
    errors: fieldMessages.optional(),
  });
  // Any call may find nothing: the spec's one "No Data Found" answer.
  return z.union([
    shaped,
    z.looseObject({
      status: z.literal(NO_DATA_FOUND_BODY.status),
      message: z.literal(NO_DATA_FOUND_BODY.message),
    }),
  ]);
}

/**
 * The site's JSON error convention (record 0020). A client's mistake is never a 500. Registered
 * inside the /api plugin (fastify-plugin: the handler is that plugin's, not a scope of its own).
 */
export const apiErrorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | DomainError | ZodError, request, reply) => {
      if (error instanceof DomainError || error instanceof ZodError) {
        const domainError =
          error instanceof ZodError
            ? new ValidationError(issuesToFieldErrors(error.issues))
            : error;
        if (domainError instanceof TooManyAttemptsError) {
          reply.header("retry-after", domainError.retryAfterSeconds);
        }
        return reply
          .code(HTTP_STATUS_OF[domainError.kind])
          .send(failureBody(domainError, request.routeOptions.config.failure));
      }
      if (isClientGone(error, request)) return endForGoneClient(request, reply);
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
  },
  { name: "api-errors" },
);
