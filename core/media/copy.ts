import fs from "node:fs";
import path from "node:path";
import { isMediaPath, mediaContentType, type MediaStorage } from "./storage.ts";

/**
 * Copies the media folder (DATA_DIR/media) into another storage, a bucket in practice: the move
 * from one machine's disk to S3 that docs/decisions/0046-media-storage.md describes (keys are the
 * paths). Safe to run again, and to stop and resume: a file whose object already exists with the
 * same size is skipped. A file that cannot be copied is reported and counted, not fatal; so is a
 * file whose name the storage would refuse (it cannot be a file the site stored).
 */
export interface MediaCopyOptions {
  /** The folder to copy from: its files' paths below it are the keys. */
  sourceDir: string;
  target: MediaStorage;
  /** A progress line after every this many files (default 500). */
  progressEvery?: number;
  /** Files copied at once (default 4). */
  concurrency?: number;
  log?: (line: string) => void;
}

export interface MediaCopyResult {
  /** Files below the source folder handled so far: the sum of the four counts below. */
  files: number;
  copied: number;
  /** Already in the target with the same size. */
  skipped: number;
  /** Names the storage refuses (see isMediaPath), or left-over temporary files. */
  refused: number;
  /** Reading the file or writing the object failed. */
  failed: number;
}

/** A write the folder storage left behind when interrupted (`<target>.<12 hex>.tmp`). */
const LEFT_OVER_TEMP = /\.[0-9a-f]{12}\.tmp$/;

/** Every file below `dir`, as paths relative to it with `/`, in a stable order. */
async function* filesBelow(dir: string, prefix = ""): AsyncGenerator<string> {
  const entries = await fs.promises.readdir(path.join(dir, prefix), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* filesBelow(dir, relative);
    else if (entry.isFile()) yield relative;
  }
}

export class MediaSourceError extends Error {}

export async function copyMediaFolder(options: MediaCopyOptions): Promise<MediaCopyResult> {
  const { sourceDir, target } = options;
  const log = options.log ?? (() => {});
  const progressEvery = options.progressEvery ?? 500;
  const concurrency = options.concurrency ?? 4;
  if (!fs.existsSync(sourceDir) || !fs.statSync(sourceDir).isDirectory()) {
    throw new MediaSourceError(`There is no media folder at ${sourceDir}: nothing to copy.`);
  }

  const result: MediaCopyResult = { files: 0, copied: 0, skipped: 0, refused: 0, failed: 0 };
  const copyOne = async (relative: string) => {
    if (LEFT_OVER_TEMP.test(relative)) {
      result.refused++;
      log(`skipped ${relative}: a temporary file left by an interrupted write`);
      return;
    }
    if (!isMediaPath(relative)) {
      result.refused++;
      log(`skipped ${JSON.stringify(relative)}: not a name the site stores media under`);
      return;
    }
    try {
      const file = path.join(sourceDir, relative);
      const { size } = await fs.promises.stat(file);
      if ((await target.size(relative)) === size) {
        result.skipped++;
        return;
      }
      await target.put(relative, await fs.promises.readFile(file), mediaContentType(relative));
      result.copied++;
    } catch (error) {
      result.failed++;
      log(`failed ${relative}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const files = filesBelow(sourceDir);
  const worker = async () => {
    for (;;) {
      // One generator shared by the workers: each next() hands out a different file.
      const next = await files.next();
      if (next.done) return;
      await copyOne(next.value);
      result.files++;
      if (result.files % progressEvery === 0) log(progressLine(result));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return result;
}

export function progressLine(result: MediaCopyResult): string {
  return `${result.files} files: ${result.copied} copied, ${result.skipped} already there, ${result.refused} refused, ${result.failed} failed`;
}
