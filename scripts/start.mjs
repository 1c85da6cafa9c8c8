// `npm start`: builds when the build is missing or older than the sources, then serves in production
// mode the compiled server (build/node/, docs/decisions/0052-compiled-start-and-processes.md). The
// npm script runs on the pinned Node 24, whose own type stripping reads the two small TypeScript
// files used before the build exists; the server itself runs as JavaScript, with no loader.
// With several server processes (WEB_CONCURRENCY), node:cluster runs this file again in each worker.
import cluster from "node:cluster";
import { registerHooks } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
process.env.NODE_ENV ??= "production";
process.setSourceMapsEnabled(true);

const compiledMain = path.join(root, "build/node/server/main.js");

if (cluster.isPrimary) {
  const { productionBuildState, runProductionBuild } = await import("./production-build.ts");
  const buildState = productionBuildState(root);
  if (buildState !== "fresh") {
    const { loadConfig, ConfigError } = await import("../config/env.ts");
    const { lockDataDir, DataDirLockedError } = await import("../db/lock.ts");
    try {
      const config = loadConfig(process.env);
      // Lock before building, so a second `npm start` cannot rebuild under a running server.
      if (!config.databaseUrl) lockDataDir(config.dataDir);
    } catch (error) {
      if (error instanceof ConfigError || error instanceof DataDirLockedError) {
        console.error(error.message);
        process.exit(1);
      }
      throw error;
    }
    console.log(
      buildState === "stale"
        ? "Sources changed since the last build: building…"
        : "No build yet: building…",
    );
    if (!(await runProductionBuild(root, "inherit")).ok) {
      console.error("The build failed; see above.");
      process.exit(1);
    }
  }
}

// The pages build (build/server/) imports the server's shared modules through package imports
// (#app-context, #core/…, #config/…, which name the TypeScript sources): here they resolve to the
// compiled modules, the very ones the compiled server loads, so there is one copy of each.
const compiledDir = pathToFileURL(path.join(root, "build/node/")).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === "#app-context")
      return { url: `${compiledDir}app/context.js`, shortCircuit: true };
    const shared = /^#(core|config)\/(.+)\.ts$/.exec(specifier);
    if (shared) return { url: `${compiledDir}${shared[1]}/${shared[2]}.js`, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});

const { main } = await import(pathToFileURL(compiledMain).href);
await main(process.env);
