import fs from "node:fs";
import { configDefaults, defineConfig } from "vitest/config";

const TEST_FILES = "{core,server,app,db,config,tests/unit,tests/integration}/**/*.test.{ts,tsx}";

/**
 * The test files that need the production build: they serve pages from build/ (`pages: true`,
 * `pages: "build"`) or start the production server (server/main.ts, tests/helpers/server-process.ts). They run as a project of their own whose global setup builds
 * first when build/ is missing or stale, so the other tests never wait for a build.
 */
const NEEDS_BUILD = /pages: (true|"build")|server\/main\.ts|helpers\/server-process/;
const BUILD_TESTS = fs
  .globSync(TEST_FILES)
  .filter((file) => NEEDS_BUILD.test(fs.readFileSync(file, "utf8")));

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are heavy; keep files isolated but not too many at once.
    fileParallelism: true,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [TEST_FILES],
          globalSetup: ["tests/setup/database-image.ts"],
          exclude: [...configDefaults.exclude, ...BUILD_TESTS],
        },
      },
      {
        extends: true,
        test: {
          name: "pages",
          include: BUILD_TESTS,
          globalSetup: ["tests/setup/database-image.ts", "tests/setup/production-build.ts"],
        },
      },
    ],
  },
});
