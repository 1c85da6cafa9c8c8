import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, expect, it } from "vitest";
import { precompressClientFiles } from "../../scripts/production-build.ts";

// The build's pre-compressed client files (docs/decisions/0054): `npm run build`, the tests' build
// and `npm start` when the build is stale all run this step after `react-router build`.

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it("writes .br and .gz beside compressible files that shrink, and removes left-overs", async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "precompress-"));
  fs.mkdirSync(path.join(dir, "assets"));
  const script = Buffer.from("export const greeting = 'hello';\n".repeat(200));
  fs.writeFileSync(path.join(dir, "assets/entry-abc123.js"), script);
  fs.writeFileSync(path.join(dir, "assets/style-abc123.css"), "a{color:red}\n".repeat(100));
  fs.writeFileSync(path.join(dir, "tiny.txt"), "x"); // compressed, it would be larger
  fs.writeFileSync(path.join(dir, "assets/photo.webp"), Buffer.alloc(4000, 7)); // compressed already
  // An older build's chunk, gone now, and its compressed copies.
  fs.writeFileSync(path.join(dir, "assets/entry-old999.js.br"), "stale");
  fs.writeFileSync(path.join(dir, "assets/entry-old999.js.gz"), "stale");

  await precompressClientFiles(dir);

  const files = fs.globSync("**/*", { cwd: dir }).sort();
  expect(files).toEqual([
    "assets",
    "assets/entry-abc123.js",
    "assets/entry-abc123.js.br",
    "assets/entry-abc123.js.gz",
    "assets/photo.webp",
    "assets/style-abc123.css",
    "assets/style-abc123.css.br",
    "assets/style-abc123.css.gz",
    "tiny.txt",
  ]);
  const br = fs.readFileSync(path.join(dir, "assets/entry-abc123.js.br"));
  const gz = fs.readFileSync(path.join(dir, "assets/entry-abc123.js.gz"));
  expect(zlib.brotliDecompressSync(br).equals(script)).toBe(true);
  expect(zlib.gunzipSync(gz).equals(script)).toBe(true);
  expect(br.length).toBeLessThan(script.length);

  // Run again over its own output (a build done twice): the same files, nothing compressed twice.
  await precompressClientFiles(dir);
  expect(fs.globSync("**/*", { cwd: dir }).sort()).toEqual(files);
});
