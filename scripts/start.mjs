// `npm start`: builds when the build is missing or older than the sources, then serves in production
// mode on this same process (the npm script runs on the pinned Node 24).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
process.env.NODE_ENV ??= "production";
register();

const { loadConfig, ConfigError } = await import("../config/env.ts");
const { lockDataDir, DataDirLockedError } = await import("../db/lock.ts");
const { productionBuildState, runProductionBuild } = await import("./production-build.ts");

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

const buildState = productionBuildState(root);
if (buildState !== "fresh") {
  console.log(
    buildState === "stale"
      ? "Sources changed since the last build: building…"
      : "No build yet: building…",
  );
  if (!runProductionBuild(root, "inherit").ok) {
    console.error("The build failed; see above.");
    process.exit(1);
  }
}

const { main } = await import("../server/main.ts");
await main(process.env);
