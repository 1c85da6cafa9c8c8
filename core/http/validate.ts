import type { z } from "zod";
import { ValidationError } from "./errors.ts";

/** Field → first message, for browser forms and API errors alike; null when the input is valid. */
export function fieldErrors<S extends z.ZodType>(
  schema: S,
  input: unknown,
): Record<string, string> | null {
  const result = schema.safeParse(input ?? {});
  if (result.success) return null;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join(".") : "_";
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Parses input with a shared schema; a failure becomes a 422 with one message per field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw new ValidationError(fieldErrors(schema, input)!);
}
