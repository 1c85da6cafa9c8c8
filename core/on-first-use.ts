/**
 * `make` run on the first call and its promise kept for the later ones; a failure is not kept, so
 * the next call tries again. For SDKs imported when first used rather than at every start.
 */
export function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
}
