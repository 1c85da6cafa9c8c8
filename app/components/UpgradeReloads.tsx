import { useContext, useEffect } from "react";
import { UNSAFE_DataRouterContext } from "react-router";
import { handleUpgradeReloads } from "../lib/upgrade-reload.ts";

/**
 * Sends React Router's reload after a rolling upgrade to the page being opened, and keeps what was
 * typed across it (app/lib/upgrade-reload.ts, docs/decisions/0101). Renders nothing. The router is
 * read from its context: the reload is decided at the moment the browser starts it, from the
 * router's state at that moment, which a hook's state, updated at React's pace, may not show yet.
 */
export function UpgradeReloads() {
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  useEffect(() => (router ? handleUpgradeReloads(router) : undefined), [router]);
  return null;
}
