/**
 * Whether a write failed on a unique index: a second request that raced the first past its check
 * (PostgreSQL's SQLSTATE 23505, on both engines). The caller turns it into the field's message.
 */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: string }).code === "23505"
  );
}
