import sharp from "sharp";
import type { Deps } from "../deps.ts";
import { VARIANT_ENCODING } from "./images.ts";
import { mediaContentType } from "./storage.ts";
import { SIZED_EXTENSIONS, parseVariantPath, type VariantFormat } from "./variants.ts";

/** At most this many variants are encoded at once; more requests wait their turn. */
const MAX_CONCURRENT = 2;

export interface MadeVariant {
  data: Buffer;
  format: VariantFormat;
}

/**
 * Makes a missing variant of a stored image when it is first asked for, and keeps it: the demo
 * content's pictures (drawn at start without them, which would take minutes for AVIF) and any
 * upload whose variant file went missing. Uploads are stored with their variants
 * (core/media/images.ts), so for them this is only a safety net.
 *
 * Only a width and format that core/media/variants.ts gives the image is ever made, and only from
 * a stored image that exists: at most six files per stored image, each made once (requests for
 * the same one share the work), a few at a time.
 */
export function createVariantMaker({ media, log }: Pick<Deps, "media" | "log">) {
  const inFlight = new Map<string, Promise<MadeVariant | null>>();
  let running = 0;
  const waiting: (() => void)[] = [];

  async function withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  }

  /** The stored image a variant is made from, read from the media storage. */
  async function readOriginal(base: string): Promise<Buffer | null> {
    for (const ext of SIZED_EXTENSIONS) {
      const bytes = await media.get(`${base}.${ext}`);
      if (bytes) return bytes;
    }
    return null;
  }

  async function originalExists(base: string): Promise<boolean> {
    for (const ext of SIZED_EXTENSIONS) {
      if (await media.exists(`${base}.${ext}`)) return true;
    }
    return false;
  }

  async function make(relative: string): Promise<MadeVariant | null> {
    const variant = parseVariantPath(relative);
    if (!variant) return null;
    const original = await readOriginal(variant.base);
    if (!original) return null;
    const data = await withSlot(() => {
      const resized = sharp(original).resize({ width: variant.width, withoutEnlargement: true });
      return (
        variant.format === "avif"
          ? resized.avif(VARIANT_ENCODING.avif)
          : resized.webp(VARIANT_ENCODING.webp)
      ).toBuffer();
    });
    try {
      await media.put(relative, data, mediaContentType(relative));
      // Deleted while this was made: the variant goes with it.
      if (!(await originalExists(variant.base))) await media.remove(relative);
    } catch (error) {
      log.warn(`could not keep the image variant ${relative}: ${String(error)}`);
    }
    return { data, format: variant.format };
  }

  return {
    /**
     * The variant at `relative` (a path below the media root, as in its URL after /media/),
     * made now and kept; null when no such variant can exist.
     */
    get(relative: string): Promise<MadeVariant | null> {
      const pending = inFlight.get(relative);
      if (pending) return pending;
      const made = make(relative)
        .catch((error: unknown) => {
          log.warn(`could not make the image variant ${relative}: ${String(error)}`);
          return null;
        })
        .finally(() => inFlight.delete(relative));
      inFlight.set(relative, made);
      return made;
    },
  };
}

export type VariantMaker = ReturnType<typeof createVariantMaker>;
