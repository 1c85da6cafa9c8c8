import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type * as S3SdkModule from "@aws-sdk/client-s3";
import type { Config, S3Config } from "../../config/env.ts";
import { onFirstUse } from "../on-first-use.ts";
import { isMediaPath } from "./media-path.ts";
import { mediaUrl } from "./variants.ts";

/**
 * Where media live (docs/decisions/0046-media-storage.md): the folder DATA_DIR/media, or an
 * S3-compatible bucket when S3_BUCKET is set. Paths are relative to the media root, as in a
 * stored URL after /media/ (`deals/q3Xb….800x600.webp`); the database keeps `/media/<path>`
 * whichever storage holds the bytes.
 */
export type MediaStorage = FolderMediaStorage | S3MediaStorage;

interface MediaStorageBase {
  /** Stores `bytes` at `relativePath`, replacing what was there; never leaves half a file. */
  put(relativePath: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes at `relativePath`, or null when there is nothing there. */
  get(relativePath: string): Promise<Buffer | null>;
  /** Whether something is stored at `relativePath`. */
  exists(relativePath: string): Promise<boolean>;
  /** The stored file's length in bytes, or null when there is nothing there. */
  size(relativePath: string): Promise<number | null>;
  /** The stored file, as a stream to send, or null when there is nothing there. */
  open(relativePath: string): Promise<StoredObject | null>;
  /** Deletes what is at `relativePath`; nothing there is not an error. */
  remove(relativePath: string): Promise<void>;
  /** Where a page links the file: MEDIA_BASE_URL + /<path>, or /media/<path>. */
  publicUrl(relativePath: string): string;
}

export interface StoredObject {
  body: Readable;
  contentType: string;
  contentLength: number | undefined;
  etag: string | undefined;
  lastModified: Date | undefined;
}

/** Media on this machine's disk, below `dir` (served there by @fastify/static). */
export interface FolderMediaStorage extends MediaStorageBase {
  readonly kind: "folder";
  readonly dir: string;
}

/** Media in a bucket of an S3-compatible object store. */
export interface S3MediaStorage extends MediaStorageBase {
  readonly kind: "s3";
  readonly bucket: string;
}

export class MediaPathError extends Error {}

/** A path below the media root as this site makes them (core/media/media-path.ts). */
export { isMediaPath };

function checked(relativePath: string): string {
  if (!isMediaPath(relativePath)) {
    throw new MediaPathError(`Not a media path: ${JSON.stringify(relativePath)}`);
  }
  return relativePath;
}

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  avif: "image/avif",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
};

/** The content type of a stored file, by its extension (the site names every file it stores). */
export function mediaContentType(relativePath: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(relativePath)?.[1]?.toLowerCase() ?? "";
  return CONTENT_TYPES[ext] ?? "application/octet-stream";
}

/** Media in a folder of this machine (DATA_DIR/media): what a single-machine site uses. */
export function createFolderStorage(dir: string, mediaBaseUrl?: string): FolderMediaStorage {
  const full = (relativePath: string) => path.join(dir, checked(relativePath));
  return {
    kind: "folder",
    dir,
    async put(relativePath, bytes) {
      const target = full(relativePath);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      // Written beside the target and renamed, so a reader never sees half a file.
      const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await fs.promises.writeFile(temp, bytes);
        await fs.promises.rename(temp, target);
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
    },
    async get(relativePath) {
      try {
        return await fs.promises.readFile(full(relativePath));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async exists(relativePath) {
      try {
        return (await fs.promises.stat(full(relativePath))).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async size(relativePath) {
      try {
        const stat = await fs.promises.stat(full(relativePath));
        return stat.isFile() ? stat.size : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async open(relativePath) {
      const target = full(relativePath);
      let stat: fs.Stats;
      try {
        stat = await fs.promises.stat(target);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      if (!stat.isFile()) return null;
      return {
        body: fs.createReadStream(target),
        contentType: mediaContentType(relativePath),
        contentLength: stat.size,
        etag: undefined,
        lastModified: stat.mtime,
      };
    },
    async remove(relativePath) {
      await fs.promises.rm(full(relativePath), { force: true });
    },
    publicUrl: (relativePath) => mediaUrl(`/media/${checked(relativePath)}`, mediaBaseUrl),
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

type S3Sdk = typeof S3SdkModule;

/** An S3 "no such object" answer (GET says NoSuchKey, HEAD only its status). */
function isNotFound(sdk: S3Sdk, error: unknown): boolean {
  return (
    error instanceof sdk.S3ServiceException &&
    (error.name === "NoSuchKey" ||
      error.name === "NotFound" ||
      error.$metadata.httpStatusCode === 404)
  );
}

/**
 * Media in an S3-compatible bucket, through the AWS SDK: AWS itself, or (with `endpoint`) a server
 * such as MinIO, Ceph or R2, addressed path-style. Keys are the media paths (`deals/….webp`).
 */
export function createS3Storage(s3: S3Config, mediaBaseUrl?: string): S3MediaStorage {
  // The SDK is imported on first use (a quarter of a second of CPU that a start need not spend).
  const connect = onFirstUse(() =>
    import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: s3.region,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
        ...(s3.endpoint ? { endpoint: s3.endpoint, forcePathStyle: true } : {}),
        // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's
        // default streaming checksum trailers on PutObject.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        maxAttempts: 3,
      }),
    })),
  );
  const Bucket = s3.bucket;

  async function getObject(relativePath: string) {
    const Key = checked(relativePath);
    const { sdk, client } = await connect();
    try {
      return await client.send(new sdk.GetObjectCommand({ Bucket, Key }));
    } catch (error) {
      if (isNotFound(sdk, error)) return null;
      throw error;
    }
  }

  return {
    kind: "s3",
    bucket: Bucket,
    async put(relativePath, bytes, contentType) {
      const Key = checked(relativePath);
      const { sdk, client } = await connect();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket,
          Key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.length,
          // Stored names are never reused for other bytes: caches may keep them a long time.
          CacheControl: "public, max-age=604800",
        }),
      );
    },
    async get(relativePath) {
      const object = await getObject(relativePath);
      if (!object?.Body) return null;
      return Buffer.from(await object.Body.transformToByteArray());
    },
    async exists(relativePath) {
      const Key = checked(relativePath);
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket, Key }));
        return true;
      } catch (error) {
        if (isNotFound(sdk, error)) return false;
        throw error;
      }
    },
    async size(relativePath) {
      const Key = checked(relativePath);
      const { sdk, client } = await connect();
      try {
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key }));
        return head.ContentLength ?? null;
      } catch (error) {
        if (isNotFound(sdk, error)) return null;
        throw error;
      }
    },
    async open(relativePath) {
      const object = await getObject(relativePath);
      if (!object?.Body) return null;
      return {
        body: object.Body as Readable,
        contentType: object.ContentType ?? mediaContentType(relativePath),
        contentLength: object.ContentLength,
        etag: object.ETag,
        lastModified: object.LastModified,
      };
    },
    async remove(relativePath) {
      const Key = checked(relativePath);
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key }));
    },
    publicUrl: (relativePath) => mediaUrl(`/media/${checked(relativePath)}`, mediaBaseUrl),
  };
}

/** The storage the configuration names: the bucket of S3_BUCKET, else DATA_DIR/media. */
export function createMediaStorage(
  config: Pick<Config, "dataDir" | "s3" | "mediaBaseUrl">,
): MediaStorage {
  return config.s3
    ? createS3Storage(config.s3, config.mediaBaseUrl)
    : createFolderStorage(path.join(config.dataDir, "media"), config.mediaBaseUrl);
}
