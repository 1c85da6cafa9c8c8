import { NotFoundError } from "./errors.ts";

/**
 * A lookup whose "no such item" (a NotFoundError) is null, for callers that answer it their own
 * way: a page loader with its 404 page, a feed with a plain 404. Any other failure stays one.
 */
export async function orNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
