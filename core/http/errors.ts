/**
 * Errors that services throw for a client's mistake. The API's error handler turns them into the
 * JSON convention of DESIGN.md (`{ status: false, message, errors? }`); anything else is a 500.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra fields merged into the JSON body (e.g. `errors` or the spec's own shapes). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class ValidationError extends AppError {
  constructor(
    readonly errors: Record<string, string>,
    message = Object.values(errors)[0] ?? "Invalid input.",
  ) {
    super(422, message, { errors });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "Please log in first.") {
    super(401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "You are not allowed to do that.") {
    super(403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = "No Data Found", body: Record<string, unknown> = {}) {
    super(404, message, body);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, body: Record<string, unknown> = {}) {
    super(409, message, body);
  }
}
