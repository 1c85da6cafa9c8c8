// `npm start`: builds when the build is missing or older than the sources, then serves in production
// mode on this same process (the npm script runs on the pinned Node 24).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
process.env.NODE_ENV ??= "production";
register();

const { loadConfig, ConfigError } = await import("../config/env.ts");
const { lockDataDir, DataDirLockedError } = await import("../db/lock.ts");

let config;
try {
  config = loadConfig(process.env);
  // Lock before building, so a second `npm start` cannot rebuild under a running server.
  if (!config.databaseUrl) lockDataDir(config.dataDir);
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

function newestMtime(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry))
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

const built = fs.statSync("build/server/index.js", { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sources = [
  "app",
  "core",
  "config",
  "public",
  "react-router.config.ts",
  "vite.config.ts",
  "package.json",
];
if (built < Math.max(...sources.map(newestMtime))) {
  console.log(
    built ? "Sources changed since the last build: building…" : "No build yet: building…",
  );
  const result = spawnSync("react-router", ["build"], {
    stdio: "inherit",
    shell: false,
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    console.error("The build failed; see above.");
    process.exit(1);
  }
}

const { main } = await import("../server/main.ts");
await main(process.env);
