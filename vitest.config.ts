import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{core,server,app,db,config,tests/unit,tests/integration}/**/*.test.{ts,tsx}"],
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are heavy; keep files isolated but not too many at once.
    fileParallelism: true,
  },
});
