import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFolderStorage } from "../../core/media/storage.ts";
import { avatarSvg, renderImages, type ImageJob } from "./images.ts";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-demo-images-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("demo images drawn through a cache folder", () => {
  it("draws each drawing once, then copies it from the cache byte for byte", async () => {
    const cacheDir = tempDir();
    let drawn = 0;
    const job = (file: string, name: string): ImageJob => ({
      file,
      svg: () => {
        drawn++;
        return avatarSvg(name, "#2F5D50");
      },
    });
    const first = tempDir();
    expect(
      await renderImages(createFolderStorage(first), [job("a.png", "Ada Lovelace")], { cacheDir }),
    ).toBe(1);
    expect(fs.readdirSync(cacheDir)).toHaveLength(1);

    // Another storage, the same drawing under another name: no new cache entry.
    const second = tempDir();
    expect(
      await renderImages(createFolderStorage(second), [job("b.png", "Ada Lovelace")], {
        cacheDir,
      }),
    ).toBe(1);
    expect(fs.readdirSync(cacheDir)).toHaveLength(1);
    expect(fs.readFileSync(path.join(second, "demo/b.png"))).toEqual(
      fs.readFileSync(path.join(first, "demo/a.png")),
    );

    // A changed drawing is drawn anew; a file already in the storage is left alone.
    await renderImages(createFolderStorage(second), [job("c.png", "Grace Hopper")], { cacheDir });
    expect(fs.readdirSync(cacheDir)).toHaveLength(2);
    expect(drawn).toBe(3);
    expect(
      await renderImages(createFolderStorage(second), [job("c.png", "Grace Hopper")], {
        cacheDir,
      }),
    ).toBe(0);
    expect(drawn).toBe(3);
  });
});
