import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startLocalS3, type LocalS3 } from "../../tests/helpers/s3-server.ts";
import { runMediaCopy } from "../../scripts/media-copy.ts";
import { copyMediaFolder, MediaSourceError } from "./copy.ts";
import { createFolderStorage, createS3Storage, type MediaStorage } from "./storage.ts";

const temps: string[] = [];
function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** A media folder as the site leaves it: nested folders, originals and variants. */
function mediaFolder(files: Record<string, string | Buffer>): string {
  const dir = tempDir("cbd-media-src-");
  for (const [relative, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), bytes);
  }
  return dir;
}

const SITE_FILES = {
  "deals/q3Xb.webp": "original deal picture",
  "deals/q3Xb.800x600.webp": "variant",
  "avatars/u1.webp": Buffer.from([0, 1, 2, 3, 255]),
  "demo/stores/shop.png": "png",
};

describe.each([
  [
    "a folder",
    async () => {
      const dir = tempDir("cbd-media-dst-");
      return { target: createFolderStorage(dir) as MediaStorage, close: async () => {} };
    },
  ],
  [
    "an S3 bucket (s3rver)",
    async () => {
      const s3 = await startLocalS3();
      return { target: createS3Storage(s3) as MediaStorage, close: () => s3.close() };
    },
  ],
] as const)("copyMediaFolder into %s", (_name, makeTarget) => {
  let target: MediaStorage;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ target, close } = await makeTarget());
  });
  afterAll(async () => {
    await close?.();
  });

  it("copies every file under its path, then skips them all when run again", async () => {
    const sourceDir = mediaFolder(SITE_FILES);
    const first = await copyMediaFolder({ sourceDir, target });
    expect(first).toEqual({ files: 4, copied: 4, skipped: 0, refused: 0, failed: 0 });
    for (const [relative, bytes] of Object.entries(SITE_FILES))
      expect(await target.get(relative)).toEqual(Buffer.from(bytes));

    const again = await copyMediaFolder({ sourceDir, target });
    expect(again).toEqual({ files: 4, copied: 0, skipped: 4, refused: 0, failed: 0 });
  });

  it("copies again an object whose size differs (a copy cut short), and only that one", async () => {
    const sourceDir = mediaFolder({ "deals/cut.webp": "the whole file", "deals/ok.webp": "ok" });
    await target.put("deals/cut.webp", Buffer.from("the wh"), "image/webp");
    await target.put("deals/ok.webp", Buffer.from("ok"), "image/webp");
    expect(await copyMediaFolder({ sourceDir, target })).toMatchObject({ copied: 1, skipped: 1 });
    expect((await target.get("deals/cut.webp"))?.toString()).toBe("the whole file");
  });

  it("reports and skips names the storage refuses, and copies the rest", async () => {
    const sourceDir = mediaFolder({
      "deals/fine.webp": "fine",
      ".DS_Store": "finder",
      "deals/with space.webp": "x",
      "deals/fine.webp.0123456789ab.tmp": "half a file",
    });
    const lines: string[] = [];
    const result = await copyMediaFolder({ sourceDir, target, log: (l) => lines.push(l) });
    expect(result).toEqual({ files: 4, copied: 1, skipped: 0, refused: 3, failed: 0 });
    expect(lines).toEqual(
      expect.arrayContaining([
        'skipped ".DS_Store": not a name the site stores media under',
        'skipped "deals/with space.webp": not a name the site stores media under',
        "skipped deals/fine.webp.0123456789ab.tmp: a temporary file left by an interrupted write",
      ]),
    );
    expect(await target.exists("deals/fine.webp")).toBe(true);
  });
});

describe("copyMediaFolder", () => {
  it("writes a progress line every N files", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 7 }, (_, i) => [`deals/p${i}.webp`, `bytes ${i}`]),
    );
    const lines: string[] = [];
    await copyMediaFolder({
      sourceDir: mediaFolder(files),
      target: createFolderStorage(tempDir("cbd-media-dst-")),
      progressEvery: 3,
      concurrency: 2,
      log: (l) => lines.push(l),
    });
    expect(lines).toEqual([
      "3 files: 3 copied, 0 already there, 0 refused, 0 failed",
      "6 files: 6 copied, 0 already there, 0 refused, 0 failed",
    ]);
  });

  it("counts a file that cannot be written as failed and goes on", async () => {
    const folder = createFolderStorage(tempDir("cbd-media-dst-"));
    const flaky: MediaStorage = {
      ...folder,
      async put(relative, bytes, type) {
        if (relative === "deals/b.webp") throw new Error("503 Slow Down");
        return folder.put(relative, bytes, type);
      },
    };
    const lines: string[] = [];
    const sourceDir = mediaFolder({
      "deals/a.webp": "a",
      "deals/b.webp": "b",
      "deals/c.webp": "c",
    });
    const result = await copyMediaFolder({ sourceDir, target: flaky, log: (l) => lines.push(l) });
    expect(result).toEqual({ files: 3, copied: 2, skipped: 0, refused: 0, failed: 1 });
    expect(lines).toContain("failed deals/b.webp: 503 Slow Down");
    // Run again against a working target: the rest is there, the failed one is copied.
    expect(await copyMediaFolder({ sourceDir, target: folder })).toMatchObject({
      copied: 1,
      skipped: 2,
    });
  });

  it("refuses a source folder that does not exist", async () => {
    await expect(
      copyMediaFolder({
        sourceDir: path.join(os.tmpdir(), "cbd-no-such-media"),
        target: createFolderStorage(tempDir("cbd-media-dst-")),
      }),
    ).rejects.toThrow(MediaSourceError);
  });
});

describe("npm run media:copy", () => {
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await startLocalS3();
  });
  afterAll(async () => {
    await s3?.close();
  });
  const output = { out: [] as string[], err: [] as string[] };
  afterEach(() => {
    vi.restoreAllMocks();
    output.out = [];
    output.err = [];
  });
  function capture() {
    vi.spyOn(console, "log").mockImplementation((line: string) => void output.out.push(line));
    vi.spyOn(console, "error").mockImplementation((line: string) => void output.err.push(line));
  }

  it("refuses with one line naming S3_BUCKET when it is not set", async () => {
    capture();
    expect(await runMediaCopy({ DATA_DIR: tempDir("cbd-data-") })).toBe(1);
    expect(output.err).toHaveLength(1);
    expect(output.err[0]).toMatch(/^S3_BUCKET is not set: /);
  });

  it("copies DATA_DIR/media into the configured bucket and sums up", async () => {
    const dataDir = tempDir("cbd-data-");
    const media = mediaFolder(SITE_FILES);
    fs.renameSync(media, path.join(dataDir, "media"));
    capture();
    // Its progress lines are the site's JSON log lines (core/log/logger.ts): read their messages.
    const progress = {
      write: (line: string) => void output.out.push((JSON.parse(line) as { msg: string }).msg),
    };
    expect(await runMediaCopy({ DATA_DIR: dataDir, ...s3.env }, progress)).toBe(0);
    expect(output.out.at(-1)).toBe("done: 4 files: 4 copied, 0 already there, 0 refused, 0 failed");
    expect(await s3.keys()).toEqual(Object.keys(SITE_FILES).sort());
  });
});
