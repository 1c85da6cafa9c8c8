import fs from "node:fs";
import * as esbuild from "esbuild";

/**
 * What in a module could make a test run differently when DATABASE_URL is set: reading the
 * environment (directly, or through config/env.ts), starting processes or cluster workers (they
 * inherit it), and imports whose module name is computed (not followed here).
 */
const READS_THE_ENVIRONMENT =
  /DATABASE_URL|process\.env|child_process|config\/env|node:cluster|\bimport\(\s*[^"'\s]/;

/**
 * The test files whose whole graph of the project's own modules (the file and everything it
 * imports, transitively, followed by esbuild) never reads the environment nor starts a process:
 * they run exactly the same with and without DATABASE_URL, so CI's PostgreSQL pass leaves them to
 * the PGlite pass (docs/decisions/0055). Packages from node_modules are not followed: none of
 * them reads DATABASE_URL (pg reads only PG* variables, which the two passes share).
 */
export async function databaseFreeTests(files: string[]): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: files,
    outdir: "/nonexistent",
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
    loader: { ".css": "empty", ".svg": "empty", ".png": "empty", ".jpg": "empty" },
  });
  // Walk the import graph (metafile.inputs), not the bundles' inputs: a module counts even when
  // tree shaking dropped all its code, since the test runner evaluates it whole.
  const { inputs } = result.metafile;
  const risky = new Map<string, boolean>();
  const isRisky = (input: string): boolean => {
    if (!risky.has(input)) {
      risky.set(input, false); // an import cycle adds nothing new
      risky.set(
        input,
        READS_THE_ENVIRONMENT.test(fs.readFileSync(input, "utf8")) ||
          (inputs[input]?.imports ?? []).some((i) => !i.external && isRisky(i.path)),
      );
    }
    return risky.get(input)!;
  };
  return files.filter((file) => inputs[file] && !isRisky(file)).sort();
}
