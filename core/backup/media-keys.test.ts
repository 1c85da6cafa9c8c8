import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/index.ts";
import { startLocalS3, type LocalS3 } from "../../tests/helpers/s3-server.ts";
import { testWorld } from "../../tests/setup/test-world.ts";
import { readManifest } from "./archive.ts";
import { createBackup } from "./create.ts";
import { MEDIA_KEYS_FILE } from "./manifest.ts";
import { restoreBackup } from "./restore.ts";

/**
 * With S3_BUCKET the archive lists the bucket's keys and copies no object (record 0096): checked
 * against a local S3 server (s3rver) holding a few images, on an embedded database.
 */
let s3: LocalS3;
let handle: DbHandle;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-backup-s3-"));
const archive = path.join(dir, "site.tar");

beforeAll(async () => {
  s3 = await startLocalS3();
  // The embedded test world's migrated image when there is one; on CI's PostgreSQL pass the world
  // is a database, and the in-memory one migrates itself.
  const world = testWorld();
  handle = await createDb({
    databaseUrl: "memory://",
    ...(world.engine === "pglite"
      ? { image: new Blob([await fs.promises.readFile(world.migrated)]) }
      : {}),
  });
  const client = new (await import("@aws-sdk/client-s3")).S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const { PutObjectCommand } = await import("@aws-sdk/client-s3");
  for (const key of ["deals/b.webp", "deals/a.webp", "avatars/c.webp"]) {
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: "image" }));
  }
  client.destroy();
}, 60_000);

afterAll(async () => {
  await handle?.close();
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a backup with the media in a bucket", () => {
  it("lists every key of the bucket, and copies none of its objects", async () => {
    const manifest = await createBackup(
      {
        engine: "pglite",
        pool: handle.pool,
        dumpImage: handle.dumpImage!,
        dataDir: dir,
        s3: {
          bucket: s3.bucket,
          region: s3.region,
          endpoint: s3.endpoint,
          accessKeyId: s3.accessKeyId,
          secretAccessKey: s3.secretAccessKey,
        },
      },
      archive,
    );
    expect(manifest.media).toEqual({ storage: "s3", bucket: s3.bucket, keys: 3 });
    expect((await readManifest(archive)).media).toEqual(manifest.media);
    const entries: string[] = [];
    let keys = "";
    await tar.list({
      file: archive,
      onReadEntry(entry) {
        entries.push(entry.path);
        if (entry.path === MEDIA_KEYS_FILE) entry.on("data", (chunk: Buffer) => (keys += chunk));
        else entry.resume();
      },
    });
    expect(entries.filter((entry) => entry.startsWith("media/"))).toEqual([]);
    expect(keys).toBe("avatars/c.webp\ndeals/a.webp\ndeals/b.webp\n");
  }, 60_000);

  it("restores the database and says where the media are", async () => {
    const lines: string[] = [];
    const target = path.join(dir, "restored");
    await restoreBackup(archive, { dataDir: target }, (line) => lines.push(line));
    expect(fs.readdirSync(target).sort()).toEqual(["pglite"]);
    expect(lines.join("\n")).toContain(`in the bucket ${s3.bucket} (3 keys listed in the archive`);
  }, 60_000);
});
