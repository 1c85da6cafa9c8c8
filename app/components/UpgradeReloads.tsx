import { useContext, useEffect } from "react";
import { UNSAFE_DataRouterContext } from "react-router";

/**
 * Sends React Router's reload after a rolling upgrade to the page being opened, and keeps what was
 * typed across it (app/lib/upgrade-reload.ts, docs/decisions/0101). Renders nothing. Its code is
 * loaded after hydration, out of the JavaScript at start (tests/integration/javascript-budget.test.ts):
 * it is needed only once the page has been open through an upgrade. The router is read from its
 * context: the reload is decided at the moment the browser starts it, from the router's state at
 * that moment, which a hook's state, updated at React's pace, may not show yet.
 */
export function UpgradeReloads() {
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  useEffect(() => {
    if (!router) return;
    let remove: (() => void) | undefined;
    let gone = false;
    import("../lib/upgrade-reload.ts").then(
      ({ handleUpgradeReloads }) => {
        if (!gone) remove = handleUpgradeReloads(router);
      },
      () => {
        // Not loaded (the server changed already): React Router's own reload stays as it is.
      },
    );
    return () => {
      gone = true;
      remove?.();
    };
  }, [router]);
  return null;
}
