import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalS3, type LocalS3 } from "../../tests/helpers/s3-server.ts";
import {
  createFolderStorage,
  createMediaStorage,
  createS3Storage,
  isMediaPath,
  MediaPathError,
  mediaContentType,
  type MediaStorage,
} from "./storage.ts";

/**
 * One suite, two storages (docs/decisions/0046-media-storage.md): the folder DATA_DIR/media and an
 * S3-compatible bucket on a local server (s3rver) that this file starts. Both must behave alike.
 */
interface Subject {
  storage: MediaStorage;
  /** What is really stored at a path, read around the adapter. */
  raw(relativePath: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

async function folderSubject(): Promise<Subject> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-media-"));
  return {
    storage: createFolderStorage(dir),
    async raw(relativePath) {
      const file = path.join(dir, relativePath);
      return fs.existsSync(file) ? fs.readFileSync(file) : null;
    },
    async close() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function s3Subject(): Promise<Subject> {
  const s3: LocalS3 = await startLocalS3();
  const storage = createS3Storage(s3);
  // Read around the adapter with the SDK directly, through a second storage's client.
  const reader = createS3Storage(s3);
  return {
    storage,
    async raw(relativePath) {
      return (await s3.keys(relativePath)).includes(relativePath) ? reader.get(relativePath) : null;
    },
    close: () => s3.close(),
  };
}

describe.each([
  ["folder", folderSubject],
  ["S3", s3Subject],
] as const)("media storage: %s", (_name, makeSubject) => {
  let subject: Subject;
  let storage: MediaStorage;
  beforeAll(async () => {
    subject = await makeSubject();
    storage = subject.storage;
  });
  afterAll(async () => {
    await subject?.close();
  });

  it("stores bytes and gives them back, in nested folders", async () => {
    const bytes = Buffer.from([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 255, 0]);
    await storage.put("deals/abc-1.800x600.webp", bytes, "image/webp");
    expect(await storage.get("deals/abc-1.800x600.webp")).toEqual(bytes);
    expect(await subject.raw("deals/abc-1.800x600.webp")).toEqual(bytes);
    expect(await storage.exists("deals/abc-1.800x600.webp")).toBe(true);
    expect(await storage.size("deals/abc-1.800x600.webp")).toBe(bytes.length);
  });

  it("replaces what was at a path", async () => {
    await storage.put("avatars/same.webp", Buffer.from("first"), "image/webp");
    await storage.put("avatars/same.webp", Buffer.from("second, longer"), "image/webp");
    expect((await storage.get("avatars/same.webp"))?.toString()).toBe("second, longer");
  });

  it("opens a stored file as a stream with its type and length", async () => {
    await storage.put("demo/logo.png", Buffer.from("png bytes"), "image/png");
    const object = (await storage.open("demo/logo.png"))!;
    expect(object.contentType).toBe("image/png");
    expect(object.contentLength).toBe(9);
    expect(await text(object.body)).toBe("png bytes");
  });

  it("answers null or false for nothing there, and removing nothing is no error", async () => {
    expect(await storage.get("deals/missing.webp")).toBeNull();
    expect(await storage.exists("deals/missing.webp")).toBe(false);
    expect(await storage.open("deals/missing.webp")).toBeNull();
    expect(await storage.size("deals/missing.webp")).toBeNull();
    expect(await storage.get("no-such-folder/x.webp")).toBeNull();
    await expect(storage.remove("deals/missing.webp")).resolves.toBeUndefined();
  });

  it("removes a file, and only that file", async () => {
    await storage.put("stores/a.webp", Buffer.from("a"), "image/webp");
    await storage.put("stores/b.webp", Buffer.from("b"), "image/webp");
    await storage.remove("stores/a.webp");
    expect(await storage.exists("stores/a.webp")).toBe(false);
    expect(await subject.raw("stores/a.webp")).toBeNull();
    expect((await storage.get("stores/b.webp"))?.toString()).toBe("b");
  });

  it.each([
    "../escape.webp",
    "deals/../../escape.webp",
    "/absolute.webp",
    "deals//double.webp",
    "deals/%2e%2e/x.webp",
    "deals\\x.webp",
    "",
  ])("refuses the path %j for every operation", async (bad) => {
    await expect(storage.put(bad, Buffer.from("x"), "image/webp")).rejects.toBeInstanceOf(
      MediaPathError,
    );
    await expect(storage.get(bad)).rejects.toBeInstanceOf(MediaPathError);
    await expect(storage.exists(bad)).rejects.toBeInstanceOf(MediaPathError);
    await expect(storage.size(bad)).rejects.toBeInstanceOf(MediaPathError);
    await expect(storage.open(bad)).rejects.toBeInstanceOf(MediaPathError);
    await expect(storage.remove(bad)).rejects.toBeInstanceOf(MediaPathError);
  });

  it("links files at /media/", () => {
    expect(storage.publicUrl("deals/abc.800x600.webp")).toBe("/media/deals/abc.800x600.webp");
  });
});

describe("media storage choice and names", () => {
  it("is the folder DATA_DIR/media without S3_BUCKET, the bucket with it", () => {
    const folder = createMediaStorage({ dataDir: "/srv/chalkboard" });
    expect(folder.kind).toBe("folder");
    expect(folder.kind === "folder" && folder.dir).toBe(path.join("/srv/chalkboard", "media"));
    const bucket = createMediaStorage({
      dataDir: "/srv/chalkboard",
      s3: {
        bucket: "deals-media",
        region: "eu-west-1",
        accessKeyId: "id",
        secretAccessKey: "secret",
      },
    });
    expect(bucket.kind === "s3" && bucket.bucket).toBe("deals-media");
  });

  it("links files at MEDIA_BASE_URL when it is set", () => {
    const storage = createMediaStorage({
      dataDir: "/srv/chalkboard",
      mediaBaseUrl: "https://cdn.example.com/media",
    });
    expect(storage.publicUrl("deals/a.webp")).toBe("https://cdn.example.com/media/deals/a.webp");
  });

  it("knows the content type of every kind of file it stores", () => {
    expect(mediaContentType("deals/a.800x600.w320.avif")).toBe("image/avif");
    expect(mediaContentType("deals/a.webp")).toBe("image/webp");
    expect(mediaContentType("demo/a.png")).toBe("image/png");
    expect(mediaContentType("x/a.JPG")).toBe("image/jpeg");
    expect(mediaContentType("x/a.gif")).toBe("image/gif");
    expect(mediaContentType("x/a.txt")).toBe("application/octet-stream");
  });

  it("accepts the paths the site makes and nothing else", () => {
    expect(isMediaPath("deals/q3Xb-_9.1600x1200.w320.avif")).toBe(true);
    expect(isMediaPath("demo/deal-crayons.800x600.webp")).toBe(true);
    expect(isMediaPath("deals/.hidden")).toBe(false);
    expect(isMediaPath("deals/..")).toBe(false);
    expect(isMediaPath(`deals/${"a".repeat(600)}.webp`)).toBe(false);
  });
});
