import { randomBytes } from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import type { DbOrTx } from "../../db/index.ts";
import { MAX_UPLOAD_BYTES } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { ValidationError } from "../errors.ts";
import { deleteMediaRecord, deleteSiteMediaRecord } from "./image-records.ts";
import { MEDIA_URL_PREFIX } from "./media-path.ts";
import { mediaContentType, type MediaStorage } from "./storage.ts";
import {
  VARIANT_FORMATS,
  sizedName,
  variantFiles,
  variantPath,
  variantWidths,
} from "./variants.ts";

/** Formats recognised by their first bytes; the declared name and type are never trusted. */
function sniffImage(bytes: Buffer): "jpeg" | "png" | "gif" | "webp" | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "png";
  if (
    bytes.subarray(0, 6).toString("latin1") === "GIF87a" ||
    bytes.subarray(0, 6).toString("latin1") === "GIF89a"
  ) {
    return "gif";
  }
  if (
    bytes.subarray(0, 4).toString("latin1") === "RIFF" &&
    bytes.subarray(8, 12).toString("latin1") === "WEBP"
  ) {
    return "webp";
  }
  return null;
}

/** Where each kind of upload is kept, below the media root (and /media/). */
export type MediaFolder =
  | "deals"
  | "avatars"
  | "discussions"
  | "stores"
  | "categories"
  | "site"
  /** Pictures copied by Submit Deal's link preview, swept when unposted (record 0110). */
  | "link-previews";

export interface StoredImage {
  /** Public URL, /media/<folder>/<name>.webp (<name>.<W>x<H>.webp when it has variants) */
  url: string;
  path: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * Encoder settings of the variants (docs/decisions/0036-responsive-images.md, measured): AVIF at
 * effort 2 takes about a ninth of the time of sharp's default (4) for some 15 % more bytes, and
 * saves 14 % over effort 1; WebP's default effort is quick already.
 */
export const VARIANT_ENCODING: VariantEncoding = {
  avif: { quality: 50, effort: 2 },
  webp: { quality: 80, effort: 4 },
};

export interface VariantEncoding {
  avif: { quality: number; effort: number };
  webp: { quality: number; effort: number };
}

export interface EncodedFile {
  relative: string;
  data: Buffer;
}

/** A decoded image, as raw pixels, from which each variant is encoded without decoding it again. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** The AVIF and WebP variants of a decoded image (core/media/variants.ts names them). */
export async function encodeVariants(
  image: RawImage,
  relative: string,
  encoding: VariantEncoding = VARIANT_ENCODING,
): Promise<EncodedFile[]> {
  const raw = { width: image.width, height: image.height, channels: image.channels };
  const jobs = variantWidths(image.width).flatMap((width) =>
    VARIANT_FORMATS.map(async (format) => {
      const resized = sharp(image.data, { raw }).resize({ width, withoutEnlargement: true });
      const encoded = format === "avif" ? resized.avif(encoding.avif) : resized.webp(encoding.webp);
      return { relative: variantPath(relative, width, format), data: await encoded.toBuffer() };
    }),
  );
  return Promise.all(jobs);
}

/** Stores the files; when one fails, removes those already stored and throws. */
async function writeAll(media: MediaStorage, files: EncodedFile[]): Promise<void> {
  const written: string[] = [];
  try {
    for (const file of files) {
      await media.put(file.relative, file.data, mediaContentType(file.relative));
      written.push(file.relative);
    }
  } catch (error) {
    await Promise.all(written.map((relative) => media.remove(relative).catch(() => undefined)));
    throw error;
  }
}

/**
 * Decodes an upload once (turned upright, bounded to `max` pixels) and encodes the stored image
 * and, with `withVariants`, its variants from those pixels. Metadata (EXIF, location) does not
 * survive the raw pixels. Throws for bytes sharp cannot read.
 */
async function encodeUpload(
  bytes: Buffer,
  folder: MediaFolder,
  max: number,
  withVariants: boolean,
) {
  const decoded = await sharp(bytes, { limitInputPixels: 40_000_000, animated: false })
    .rotate()
    .resize({ width: max, height: max, fit: "inside", withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image: RawImage = {
    data: decoded.data,
    width: decoded.info.width,
    height: decoded.info.height,
    channels: decoded.info.channels,
  };
  const id = randomBytes(12).toString("base64url");
  const relative = path.posix.join(
    folder,
    withVariants ? sizedName(id, image.width, image.height, "webp") : `${id}.webp`,
  );
  const raw = { width: image.width, height: image.height, channels: image.channels };
  const [original, variants] = await Promise.all([
    sharp(image.data, { raw }).webp({ quality: 82 }).toBuffer({ resolveWithObject: true }),
    withVariants ? encodeVariants(image, relative) : [],
  ]);
  return { relative, original, variants };
}

/**
 * Checks an upload by its bytes (JPEG, PNG, GIF or WebP, at most 5 MB), re-encodes it as WebP with
 * sharp — which drops EXIF and location data — bounded to `maxSize` pixels, and stores it under a
 * server-made name in <folder>/ of the media storage. With `variants`, the image is also stored in the widths
 * and formats of core/media/variants.ts, beside it, and its name carries its size. A bad file is a
 * 422 for `field` and nothing is written.
 */
export async function storeUploadedImage(
  media: MediaStorage,
  folder: MediaFolder,
  bytes: Buffer,
  options: { field?: string; maxSize?: number; variants?: boolean } = {},
): Promise<StoredImage> {
  const field = options.field ?? "image";
  if (bytes.length > MAX_UPLOAD_BYTES)
    throw new ValidationError({ [field]: "The image must be 5 MB or smaller." });
  if (!sniffImage(bytes)) {
    throw new ValidationError({ [field]: "Please choose an image file (JPEG, PNG, GIF or WebP)." });
  }
  let encoded: Awaited<ReturnType<typeof encodeUpload>>;
  try {
    encoded = await encodeUpload(bytes, folder, options.maxSize ?? 1600, !!options.variants);
  } catch {
    throw new ValidationError({
      [field]: "This image could not be read. Please choose another file.",
    });
  }
  const { relative, original, variants } = encoded;
  // The variants first: an image whose name promises variants is never there without them.
  await writeAll(media, [...variants, { relative, data: original.data }]);
  return {
    url: `/media/${relative}`,
    path: relative,
    width: original.info.width,
    height: original.info.height,
    bytes: original.info.size,
  };
}

/** The storage, and a log for a file that cannot be removed. */
type MediaDeps = Pick<Deps, "media"> & { log: Pick<Deps["log"], "warn"> };

/**
 * Deletes a stored file nothing refers to any more, with its variants. A file that cannot be
 * removed is logged, not thrown: the request that let go of it has succeeded (or failed for a
 * reason of its own).
 */
export async function removeStoredFile({ media, log }: MediaDeps, relativePath: string) {
  for (const file of [relativePath, ...variantFiles(relativePath)]) {
    try {
      await media.remove(file);
    } catch (error) {
      log.warn(`could not remove the stored image ${file}: ${String(error)}`);
    }
  }
}

/** Removes stored images nothing refers to (a write that failed after storing them). */
export async function removeStoredImages(deps: MediaDeps, images: readonly StoredImage[]) {
  for (const image of images) await removeStoredFile(deps, image.path);
}

/**
 * Stores an uploaded image (if any) before `write` and removes it again if `write` fails, so a
 * refused or failed request leaves neither a row nor a file behind.
 */
export async function withStoredImage<T>(
  deps: MediaDeps,
  upload: {
    bytes: Buffer | undefined | null;
    folder: MediaFolder;
    maxSize?: number;
    /** Store responsive variants beside it (post images, shown on cards and post pages). */
    variants?: boolean;
  },
  write: (stored: StoredImage | null) => Promise<T>,
): Promise<T> {
  const stored = upload.bytes
    ? await storeUploadedImage(deps.media, upload.folder, upload.bytes, {
        maxSize: upload.maxSize,
        variants: upload.variants,
      })
    : null;
  try {
    return await write(stored);
  } catch (error) {
    if (stored) await removeStoredFile(deps, stored.path);
    throw error;
  }
}

/**
 * Lets go of an image a user uploaded once nothing shows it any more (a replaced avatar, the picture
 * of a deleted account): its media record, then its file. Only the user's own uploads are ever
 * deleted, never a shared image or a link to elsewhere.
 */
export async function releaseUserImage(
  deps: MediaDeps & { db: DbOrTx },
  userId: number,
  url: string | null | undefined,
): Promise<void> {
  if (!url?.startsWith(MEDIA_URL_PREFIX)) return;
  const relativePath = url.slice(MEDIA_URL_PREFIX.length);
  if (await deleteMediaRecord(deps.db, userId, relativePath)) {
    await removeStoredFile(deps, relativePath);
  }
}

/** The site's own images (store and category pictures): whoever of the staff uploaded them. */
const SITE_IMAGE_FOLDERS = ["stores/", "categories/"];

/**
 * Lets go of a store's or a category's picture once nothing shows it any more (replaced, removed,
 * or its store deleted): its media record, then its file. Only uploads in the site's own folders
 * are deleted, never a demo image, a member's upload or a link to elsewhere.
 */
export async function releaseSiteImage(
  deps: MediaDeps & { db: DbOrTx },
  url: string | null | undefined,
): Promise<void> {
  if (!url?.startsWith(MEDIA_URL_PREFIX)) return;
  const relativePath = url.slice(MEDIA_URL_PREFIX.length);
  if (!SITE_IMAGE_FOLDERS.some((folder) => relativePath.startsWith(folder))) return;
  if (await deleteSiteMediaRecord(deps.db, relativePath)) {
    await removeStoredFile(deps, relativePath);
  }
}
