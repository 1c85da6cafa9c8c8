// `npm test`: every check CI runs, in order, stopping at the first failure.
// Lint and types, the production build, unit and integration tests (PGlite; PostgreSQL too when
// DATABASE_URL is set), then the browser tests in Chromium.
import { spawnSync } from "node:child_process";

const steps = [
  ["lint", "eslint", ["."]],
  ["format", "prettier", ["--check", "."]],
  ["types", "react-router", ["typegen"]],
  ["types", "tsc", ["--noEmit"]],
  ["build", "react-router", ["build"]],
  ["unit and integration tests", "vitest", ["run"]],
  ["browser tests", "playwright", ["test"]],
];

const only = process.argv.slice(2);
for (const [name, command, args] of steps) {
  if (only.length && !only.some((o) => name.startsWith(o))) continue;
  console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed (${command} exited ${result.status ?? result.signal}).`);
    process.exit(result.status || 1);
  }
}
console.log("\n✔ all checks passed");
