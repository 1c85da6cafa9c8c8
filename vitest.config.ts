import fs from "node:fs";
import { configDefaults, defineConfig } from "vitest/config";
import { databaseFreeTests } from "./tests/setup/database-free-tests.ts";

const TEST_FILES = "{core,server,app,db,config,tests/unit,tests/integration}/**/*.test.{ts,tsx}";

/**
 * The test files that need the production build: they serve pages from build/ (`pages: true`,
 * `pages: "build"`, or the fuzz of every door, tests/helpers/fuzz.ts) or start the production
 * server (server/main.ts, tests/helpers/server-process.ts). They run as a project of their own
 * whose global setup builds first when build/ is missing or stale, so the other tests never wait
 * for a build.
 */
const NEEDS_BUILD = /pages: (true|"build")|server\/main\.ts|helpers\/(server-process|fuzz)\.ts/;
const BUILD_TESTS = fs
  .globSync(TEST_FILES)
  .filter((file) => NEEDS_BUILD.test(fs.readFileSync(file, "utf8")));

/**
 * CI's PostgreSQL pass (.ci/run sets DATABASE_TESTS_ONLY=1 beside DATABASE_URL) leaves out the test
 * files that run exactly the same without a database URL: those whose own modules, followed
 * through every import, never read the environment nor start a process. The PGlite pass has
 * already run them (docs/decisions/0055). Everywhere else every file runs.
 */
const cache = globalThis as { sameWithoutDatabase?: string[] }; // the projects load this file again
if (!cache.sameWithoutDatabase) {
  cache.sameWithoutDatabase =
    process.env.DATABASE_URL && process.env.DATABASE_TESTS_ONLY === "1"
      ? await databaseFreeTests(fs.globSync(TEST_FILES))
      : [];
  if (cache.sameWithoutDatabase.length)
    console.log(
      `DATABASE_TESTS_ONLY: leaving out ${cache.sameWithoutDatabase.length} test files that never read the environment (the PGlite pass ran them):\n  ${cache.sameWithoutDatabase.join("\n  ")}`,
    );
}
const SAME_WITHOUT_DATABASE = cache.sameWithoutDatabase;

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    // One file per core: a test app's PGlite runs in a thread of its own, so two files at once
    // keep both cores of the CI machine busy (docs/decisions/0077).
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
          globalSetup: ["tests/setup/test-world.ts"],
          exclude: [...configDefaults.exclude, ...BUILD_TESTS, ...SAME_WITHOUT_DATABASE],
        },
      },
      {
        extends: true,
        test: {
          name: "pages",
          include: BUILD_TESTS,
          exclude: [...configDefaults.exclude, ...SAME_WITHOUT_DATABASE],
          globalSetup: ["tests/setup/test-world.ts", "tests/setup/production-build.ts"],
        },
      },
    ],
  },
});
