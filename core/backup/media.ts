import fs from "node:fs";
import path from "node:path";
import type { S3Config } from "../../config/env.ts";

/** Every file below the media folder, as paths relative to it ("deals/….webp"), sorted. */
export async function mediaFiles(dir: string): Promise<{ files: string[]; bytes: number }> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { files: [], bytes: 0 };
    throw error;
  }
  const files: string[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.push(path.relative(dir, full).split(path.sep).join("/"));
    bytes += (await fs.promises.stat(full)).size;
  }
  return { files: files.sort(), bytes };
}

/**
 * Every key of the media bucket. The objects themselves stay in the bucket, whose own versioning
 * or replication is the operator's to keep (docs/deploy.md, "Backups and restore"): the list says
 * what the database's rows point at when the backup was taken.
 */
export async function mediaBucketKeys(s3: S3Config): Promise<string[]> {
  const sdk = await import("@aws-sdk/client-s3");
  const client = new sdk.S3Client({
    region: s3.region,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    ...(s3.endpoint ? { endpoint: s3.endpoint, forcePathStyle: true } : {}),
  });
  const keys: string[] = [];
  let ContinuationToken: string | undefined;
  try {
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken }),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  } finally {
    client.destroy();
  }
  return keys.sort();
}
