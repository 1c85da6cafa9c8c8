// The PostgreSQL wire protocol as the PGlite thread reads it. Plain TypeScript (types only): the
// thread imports it as it is.

/** The length of the message at `at` (its type byte, then the length, which counts itself). */
export function messageLength(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at + 1]! << 24) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 8) | bytes[at + 4]!) >>> 0
  );
}
