import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp, { type OutputInfo } from "sharp";
import { MAX_UPLOAD_BYTES } from "../constants.ts";
import { ValidationError } from "../http/errors.ts";

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

export interface StoredImage {
  /** Public URL, /media/<folder>/<name>.webp */
  url: string;
  path: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * Checks an upload by its bytes (JPEG, PNG, GIF or WebP, at most 5 MB), re-encodes it as WebP with
 * sharp — which drops EXIF and location data — bounded to `maxSize` pixels, and stores it under a
 * server-made name in mediaDir/<folder>/. A bad file is a 422 for `field` and nothing is written.
 */
export async function storeUploadedImage(
  mediaDir: string,
  folder: "deals" | "avatars" | "discussions",
  bytes: Buffer,
  options: { field?: string; maxSize?: number } = {},
): Promise<StoredImage> {
  const field = options.field ?? "image";
  if (bytes.length > MAX_UPLOAD_BYTES)
    throw new ValidationError({ [field]: "The image must be 5 MB or smaller." });
  if (!sniffImage(bytes)) {
    throw new ValidationError({ [field]: "Please choose an image file (JPEG, PNG, GIF or WebP)." });
  }
  let output: { data: Buffer; info: OutputInfo };
  try {
    const max = options.maxSize ?? 1600;
    output = await sharp(bytes, { limitInputPixels: 40_000_000, animated: false })
      .rotate()
      .resize({ width: max, height: max, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new ValidationError({
      [field]: "This image could not be read. Please choose another file.",
    });
  }
  const name = `${randomBytes(12).toString("base64url")}.webp`;
  const relative = path.posix.join(folder, name);
  await fs.mkdir(path.join(mediaDir, folder), { recursive: true });
  await fs.writeFile(path.join(mediaDir, relative), output.data);
  return {
    url: `/media/${relative}`,
    path: relative,
    width: output.info.width,
    height: output.info.height,
    bytes: output.info.size,
  };
}

/** Removes a stored file (when the transaction that would have referenced it fails). */
export async function removeStoredImage(mediaDir: string, relativePath: string): Promise<void> {
  await fs.rm(path.join(mediaDir, relativePath), { force: true });
}
