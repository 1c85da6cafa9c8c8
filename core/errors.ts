// The domain errors under the names core services throw (issue 8). The api-seams branch moves the
// classes here; until the merge this file re-exports them from their old home.
export {
  AppError as DomainError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError as UnauthenticatedError,
  ValidationError,
} from "./http/errors.ts";
