import fs from "node:fs";
import * as tar from "tar";
import { z } from "zod";
import { BackupError, BackupManifest, MANIFEST_FILE } from "./manifest.ts";

/**
 * The backup archive: one tar (node-tar), `manifest.json` first, then the database file, then the
 * media files or the bucket's key list (core/backup/manifest.ts names them). Reading and writing
 * live here alone, so every command that moves a site (backup, restore, the engine move) reads the
 * same format.
 */

/**
 * Writes the tar of `entries` (paths relative to `cwd`, in this order) to `file`. The caller
 * writes to a temporary name and renames it: a half-written archive never has the final name.
 */
export async function packArchive(file: string, cwd: string, entries: string[]): Promise<void> {
  // portable: no owner names, user ids or device numbers of this machine in the headers.
  await tar.create({ file, cwd, portable: true, strict: true }, entries);
}

/**
 * Reads the whole archive, header by header (a truncated or damaged tar fails here), and answers
 * its manifest, which must come first and be one this code reads.
 */
export async function readManifest(file: string): Promise<BackupManifest> {
  let first: string | undefined;
  let text = "";
  try {
    await fs.promises.access(file, fs.constants.R_OK);
  } catch {
    throw new BackupError(`Cannot read ${file}: no such file, or not readable.`);
  }
  try {
    await tar.list({
      file,
      strict: true,
      onReadEntry(entry) {
        first ??= entry.path;
        if (entry.path === MANIFEST_FILE && first === MANIFEST_FILE) {
          entry.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        } else {
          entry.resume();
        }
      },
    });
  } catch (error) {
    throw new BackupError(
      `${file} is not a readable backup archive (${(error as Error).message}).`,
    );
  }
  if (first === undefined) throw new BackupError(`${file} is not a backup archive: it is empty.`);
  if (first !== MANIFEST_FILE) {
    throw new BackupError(`${file} is not a Chalkboard Deals backup: it has no ${MANIFEST_FILE}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BackupError(`${file}: its ${MANIFEST_FILE} is not JSON.`);
  }
  const manifest = BackupManifest.safeParse(parsed);
  if (!manifest.success) {
    const version = z.object({ format_version: z.unknown() }).safeParse(parsed);
    throw new BackupError(
      `${file}: its ${MANIFEST_FILE} is not one this version reads (format_version ${JSON.stringify(version.success ? version.data.format_version : undefined)}; ${manifest.error.issues[0]?.path.join(".")}: ${manifest.error.issues[0]?.message}).`,
    );
  }
  return manifest.data;
}

/**
 * Extracts the archive below `dir`. node-tar keeps every entry inside `dir` (no absolute paths, no
 * `..`, no links out), and strict mode makes any damage an error.
 */
export async function extractArchive(file: string, dir: string): Promise<void> {
  try {
    await tar.extract({ file, cwd: dir, strict: true });
  } catch (error) {
    throw new BackupError(`${file} could not be read to the end (${(error as Error).message}).`);
  }
}
