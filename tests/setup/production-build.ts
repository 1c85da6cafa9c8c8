import path from "node:path";
import { productionBuildState, runProductionBuild } from "../../scripts/production-build.ts";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Vitest global setup of the tests that need the production build (see vitest.config.ts): builds
 * build/ first when it is missing or older than its sources, deciding as `npm start` does.
 */
export default async function buildIfNeeded(): Promise<void> {
  const state = productionBuildState(root);
  if (state === "fresh") return;
  console.log(
    `${state === "missing" ? "No production build yet" : "Sources changed since the last build"}: building it for the tests that serve pages (react-router build)…`,
  );
  const { ok, output } = await runProductionBuild(root, "pipe");
  if (!ok) {
    throw new Error(
      `The production build failed, and the page tests need it (try \`npm run build\`):\n${output}`,
    );
  }
}
