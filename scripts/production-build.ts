// The production build in build/: whether it is missing or older than what it is built from, and
// building it. `npm start` (scripts/start.mjs) and the tests that need the build
// (tests/setup/production-build.ts) decide and build the same way.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** What build/ is made from: a change to any of these makes the build stale. */
const BUILD_SOURCES = [
  "app",
  "core",
  "config",
  "public",
  "react-router.config.ts",
  "vite.config.ts",
  "package.json",
];

export type ProductionBuildState = "fresh" | "stale" | "missing";

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry))
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

export function productionBuildState(root: string): ProductionBuildState {
  const built = fs.statSync(path.join(root, "build/server/index.js"), { throwIfNoEntry: false });
  if (!built) return "missing";
  const sources = Math.max(...BUILD_SOURCES.map((source) => newestMtime(path.join(root, source))));
  return built.mtimeMs < sources ? "stale" : "fresh";
}

/**
 * Runs the project's own `react-router build` on this Node. With "inherit" its output goes to this
 * process's; with "pipe" it is returned.
 */
export function runProductionBuild(
  root: string,
  stdio: "inherit" | "pipe",
): { ok: boolean; output: string } {
  // Asked for from inside Vitest, the build must not see Vitest's variables: vite.config.ts leaves
  // React Router's plugins out under Vitest.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$)/.test(name)),
  );
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/.bin/react-router"), "build"],
    { cwd: root, stdio, encoding: "utf8", env: { ...env, NODE_ENV: "production" } },
  );
  return { ok: result.status === 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}
