/**
 * LIKE / ILIKE patterns for what a person typed: the pattern's own wildcards (% and _) and its
 * escape character (\, PostgreSQL's default) are taken literally.
 */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Matches `text` anywhere. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** Matches values that start with `text`. */
export function startsWithPattern(text: string): string {
  return `${escapeLike(text)}%`;
}
