import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { Deps } from "../deps.ts";
import { VARIANT_ENCODING } from "./images.ts";
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
export function createVariantMaker({ mediaDir, log }: Pick<Deps, "mediaDir" | "log">) {
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

  async function findOriginal(base: string): Promise<string | null> {
    for (const ext of SIZED_EXTENSIONS) {
      const candidate = path.join(mediaDir, `${base}.${ext}`);
      try {
        if ((await fs.stat(candidate)).isFile()) return candidate;
      } catch {
        /* not this extension */
      }
    }
    return null;
  }

  async function make(relative: string): Promise<MadeVariant | null> {
    const variant = parseVariantPath(relative);
    if (!variant) return null;
    const original = await findOriginal(variant.base);
    if (!original) return null;
    const data = await withSlot(() => {
      const resized = sharp(original).resize({ width: variant.width, withoutEnlargement: true });
      return (
        variant.format === "avif"
          ? resized.avif(VARIANT_ENCODING.avif)
          : resized.webp(VARIANT_ENCODING.webp)
      ).toBuffer();
    });
    const target = path.join(mediaDir, relative);
    const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await fs.writeFile(temp, data);
      await fs.rename(temp, target);
      // Deleted while this was made: the variant goes with it.
      if (!(await findOriginal(variant.base))) await fs.rm(target, { force: true });
    } catch (error) {
      await fs.rm(temp, { force: true });
      log.warn(`could not keep the image variant ${relative}: ${String(error)}`);
    }
    return { data, format: variant.format };
  }

  return {
    /**
     * The variant at `relative` (a path below the media folder, as in its URL after /media/),
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
