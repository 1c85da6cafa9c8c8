import { NO_DATA_FOUND } from "./constants.ts";

/**
 * What went wrong, in the domain's words. Services throw only these; each door decides what a
 * kind means to its client (HTTP_STATUS_OF below, read by the JSON API and the page forms; page
 * loaders answer their 404). Anything else a service throws is a fault of the server.
 */
export type DomainErrorKind =
  /** The input breaks a rule; `errors` says which field and why. */
  | "validation"
  /** The thing asked for does not exist (or is not visible to the asker). */
  | "not_found"
  /** The request clashes with what exists (a duplicate, an already active subscription). */
  | "conflict"
  /** The asker is known but may not do this. */
  | "forbidden"
  /** The asker is not signed in, or their credentials or token did not prove who they are. */
  | "unauthenticated"
  /** Well-formed, but refused as it stands: a used or expired link. */
  | "rejected"
  /** A part the request needs is missing or down (no payment keys, the mail server refused). */
  | "unavailable"
  /** A provider the request relies on answered with a failure. */
  | "upstream"
  /** Too many attempts: refused until a moment the error names (sign-in guessing limits). */
  | "too_many";

/**
 * The HTTP status each kind answers, at both doors that speak HTTP: the JSON API
 * (server/api/errors.ts) and a form posted to its page (app/lib/form-action.server.ts). A number
 * per kind, so that the two doors cannot disagree; core itself sends nothing.
 */
export const HTTP_STATUS_OF: Record<DomainErrorKind, number> = {
  validation: 422,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unauthenticated: 401,
  rejected: 400,
  unavailable: 503,
  upstream: 502,
  too_many: 429,
};

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Data the client needs to act on the failure (e.g. the live deal a duplicate points to). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(
    /** One message per field, in the order the fields were checked. */
    readonly errors: Record<string, string>,
    message = Object.values(errors)[0] ?? "Invalid input.",
  ) {
    super("validation", message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string = NO_DATA_FOUND) {
    super("not_found", message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("conflict", message, details);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = "You are not allowed to do that.") {
    super("forbidden", message);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = "Please log in first.") {
    super("unauthenticated", message);
  }
}

export class RejectedError extends DomainError {
  constructor(message: string) {
    super("rejected", message);
  }
}

export class UnavailableError extends DomainError {
  constructor(message: string) {
    super("unavailable", message);
  }
}

export class UpstreamError extends DomainError {
  constructor(message: string) {
    super("upstream", message);
  }
}

/** Refused for now; the same request may succeed after `retryAfterSeconds`. */
export class TooManyAttemptsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super("too_many", message);
  }
}
