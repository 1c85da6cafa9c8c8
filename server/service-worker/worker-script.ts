import { createHash } from "node:crypto";
import fs from "node:fs";

/**
 * The site's service worker (docs/decisions/0108-installable-app.md), served at /sw.js with scope
 * `/`. Its code is the plain JavaScript of ./sw.js (one function); its settings are written after
 * it as JSON, in the call. The server makes the script once at start from the client build's file
 * list, so a new build makes new bytes and browsers install the new worker.
 *
 * What it does:
 * - precaches the offline page and the build's hashed scripts and style sheets, and answers those
 *   from the cache (they never change under one name);
 * - page navigations go to the network first (through navigation preload); only when the network
 *   fails does it answer the offline page, with the signed-in member's saved deals as last seen;
 * - it caches no page, no answer to a POST, and no /api/ answer but the offline list, which it
 *   keeps for one member: the page tells it who is signed in; a visitor, another member or a
 *   sign-out drops the list at once;
 * - `push` shows a notification from `{title, body, url, tag?}`; a click focuses a tab on that
 *   address or opens one, never an address of another origin.
 */

/** What the worker is told when the server makes it. */
export interface WorkerSettings {
  /** Names the worker's caches: a new version drops the old ones. */
  version: string;
  /** Same-origin paths fetched and kept at install: the offline page and the build's assets. */
  precache: string[];
  /** The page shown offline; it holds OFFLINE_LIST_MARK where the saved deals go. */
  offlinePath: string;
  /** The JSON call that answers the signed-in member's saved deals for the offline page. */
  savedDealsPath: string;
  /** The icon of notifications. */
  iconPath: string;
  /** Paths whose request signs the member out (any method). */
  signOutPaths: string[];
}

/** Where the offline page's saved deals are written into it by the worker. */
export const OFFLINE_LIST_MARK = "<!--offline-saved-deals-->";

/** The worker's source: a function the script calls with its settings. */
const WORKER_SOURCE = fs.readFileSync(new URL("./sw.js", import.meta.url), "utf8");

/** The worker's script text for these settings: sw.js, and its call with them. */
export function serviceWorkerScript(settings: Omit<WorkerSettings, "version">): string {
  // The version names this script's caches: it changes whenever the script or its list does.
  const version = createHash("sha256")
    .update(WORKER_SOURCE)
    .update(JSON.stringify(settings))
    .digest("hex")
    .slice(0, 16);
  const full: WorkerSettings = { version, ...settings };
  return `"use strict";\n${WORKER_SOURCE}\nserviceWorkerMain(${JSON.stringify(full)}, ${JSON.stringify(OFFLINE_LIST_MARK)});\n`;
}
