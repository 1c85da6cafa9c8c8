// The production build in build/: whether it is missing or older than what it is built from, and
// building it. `npm start` (scripts/start.mjs), `npm run build` and the tests that need the build
// (tests/setup/production-build.ts) decide and build the same way. Runs on Node's own type
// stripping (no loader): type annotations only, nothing TypeScript would have to compile.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";

/** What build/ is made from: a change to any of these makes the build stale. */
export const BUILD_SOURCES = [
  "app",
  "core",
  "config",
  "server",
  "db",
  "public",
  "react-router.config.ts",
  "vite.config.ts",
  "package.json",
  "scripts/production-build.ts",
];

/**
 * The server's own code, compiled to JavaScript module by module (docs/decisions/0052): the folders
 * below and the one app module the server shares with the pages (the request context).
 */
const SERVER_SOURCE_DIRS = ["server", "core", "db", "config"];
const SERVER_SOURCE_FILES = ["app/context.ts", "app/lib/theme.ts"];

/** Where the compiled server goes, mirroring the source tree: build/node/server/main.js, … */
export const COMPILED_SERVER_DIR = "build/node";
export const COMPILED_MAIN = `${COMPILED_SERVER_DIR}/server/main.js`;
const PAGES_BUILD = "build/server/index.js";

export type ProductionBuildState = "fresh" | "stale" | "missing";

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) {
    if (/\.test\.tsx?$/.test(name)) continue; // tests beside the sources are no part of the build
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

export function productionBuildState(root: string): ProductionBuildState {
  const built = [PAGES_BUILD, COMPILED_MAIN].map((file) =>
    fs.statSync(path.join(root, file), { throwIfNoEntry: false }),
  );
  if (built.some((stat) => !stat)) return "missing";
  const oldest = Math.min(...built.map((stat) => stat!.mtimeMs));
  const sources = Math.max(...BUILD_SOURCES.map((source) => newestMtime(path.join(root, source))));
  return oldest < sources ? "stale" : "fresh";
}

/** The server's TypeScript modules (tests and type declarations left out). */
function serverSources(root: string): string[] {
  const files = SERVER_SOURCE_DIRS.flatMap((dir) =>
    fs
      .globSync(`${dir}/**/*.ts`, { cwd: root })
      .filter((file) => !/\.(test|d)\.ts$/.test(file) && !file.includes("__")),
  );
  return [...files, ...SERVER_SOURCE_FILES].sort();
}

/**
 * Rewrites one compiled module so that it runs from build/node/ as its source ran from the tree:
 * relative imports of `.ts` files name the compiled `.js` ones; the package imports the pages
 * build also uses (`#app-context`, `#core/…`, `#config/…`) become relative paths to the compiled
 * modules, so there is one copy of each; and `import.meta.url` stays the source file's address,
 * so files read beside a module (db/migrations/, word lists) are found where they are.
 */
export function rewriteCompiledModule(code: string, sourceFile: string): string {
  const depth = path.posix.dirname(sourceFile).split("/").length;
  const toCompiledRoot = "../".repeat(depth);
  const toSourceRoot = "../".repeat(depth + 2); // out of build/node/ too
  const specifier = /((?:\bfrom|\bimport)\s*\(?\s*)(["'])([^"']+)\2/g;
  return code
    .replace(specifier, (whole, head: string, quote: string, name: string) => {
      let target = name;
      if (name === "#app-context") target = `${toCompiledRoot}app/context.js`;
      else if (/^#(core|config)\/.+\.ts$/.test(name)) target = toCompiledRoot + name.slice(1);
      else if (!/^\.\.?\//.test(name) || !name.endsWith(".ts")) return whole;
      return `${head}${quote}${target.replace(/\.ts$/, ".js")}${quote}`;
    })
    .replace(
      /\bimport\.meta\.url\b/g,
      `new URL(${JSON.stringify(toSourceRoot + sourceFile)}, import.meta.url).href`,
    );
}

/** Compiles the server's modules into build/node/ with esbuild (one file per module, source maps). */
export async function compileServer(root: string): Promise<void> {
  const esbuild = await import("esbuild");
  const sources = serverSources(root);
  const outdir = path.join(root, COMPILED_SERVER_DIR);
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: sources,
    outdir,
    outbase: ".",
    bundle: false,
    format: "esm",
    platform: "node",
    target: "node24",
    sourcemap: "linked",
    sourcesContent: false, // the maps point at the sources, which stay beside the build
    write: false,
    logLevel: "warning",
  });
  fs.rmSync(outdir, { recursive: true, force: true });
  for (const file of result.outputFiles) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    if (!file.path.endsWith(".js")) {
      fs.writeFileSync(file.path, file.contents);
      continue;
    }
    const source = path
      .relative(outdir, file.path)
      .split(path.sep)
      .join("/")
      .replace(/\.js$/, ".ts");
    fs.writeFileSync(file.path, rewriteCompiledModule(file.text, source));
  }
  // The pages build and the compiled server are one build: `npm start` serves them together.
  const main = path.join(root, COMPILED_MAIN);
  const now = new Date();
  fs.utimesSync(main, now, now);
}

/** The browser's files that compress: text formats. Pictures and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|xml|webmanifest|map|ico|wasm)$/;
const PRECOMPRESSED_EXTENSIONS = [".br", ".gz"];
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) beside every compressible
 * file of the client build, each only when smaller than the file, and removes any left beside a
 * file that is gone (docs/decisions/0054). The server sends them as they are (@fastify/static's
 * `preCompressed`): once compressed hard at build time instead of lightly on every request.
 */
export async function precompressClientFiles(clientDir: string): Promise<number> {
  const files = fs.globSync("**/*", { cwd: clientDir }).filter((file) => {
    return fs.statSync(path.join(clientDir, file)).isFile();
  });
  const present = new Set(files);
  let written = 0;
  const work: Promise<void>[] = [];
  for (const file of files) {
    const full = path.join(clientDir, file);
    const extension = PRECOMPRESSED_EXTENSIONS.find((ending) => file.endsWith(ending));
    if (extension) {
      // A left-over of a file that is no longer built (react-router build empties build/ first).
      if (!present.has(file.slice(0, -extension.length))) fs.rmSync(full);
      continue;
    }
    if (!COMPRESSIBLE.test(file)) continue;
    work.push(
      (async () => {
        const body = fs.readFileSync(full);
        const [br, gz] = await Promise.all([
          brotli(body, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
          gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
        ]);
        for (const [extension, compressed] of [
          [".br", br],
          [".gz", gz],
        ] as const) {
          if (compressed.length < body.length) {
            fs.writeFileSync(full + extension, compressed);
            written += 1;
          } else fs.rmSync(full + extension, { force: true });
        }
      })(),
    );
  }
  await Promise.all(work);
  return written;
}

/**
 * Runs the project's own `react-router build` on this Node, compresses the client files, then
 * compiles the server. With "inherit" the output goes to this process's; with "pipe" it is
 * returned.
 */
export async function runProductionBuild(
  root: string,
  stdio: "inherit" | "pipe",
): Promise<{ ok: boolean; output: string }> {
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
  let output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0) return { ok: false, output };
  try {
    await precompressClientFiles(path.join(root, "build/client"));
    await compileServer(root);
  } catch (error) {
    output += `\nCompressing the client files or compiling the server failed: ${(error as Error).message}\n`;
    if (stdio === "inherit") console.error(output.trim());
    return { ok: false, output };
  }
  return { ok: true, output };
}

// `npm run build`
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = path.resolve(import.meta.dirname, "..");
  const { ok } = await runProductionBuild(root, "inherit");
  if (ok) console.log(`Compiled the server into ${COMPILED_SERVER_DIR}/`);
  process.exit(ok ? 0 : 1);
}
