import { useSyncExternalStore } from "react";

const subscribeNever = () => () => {};

/**
 * False on the server and while the page hydrates, true on every later render in the browser: for
 * a control that needs the scripts (a confirmation dialog) and has a plain link or form before.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
