import fs from "node:fs";
import http from "node:http";
import { pipeline } from "node:stream/promises";
import { readManifest } from "./archive.ts";
import { BackupError, type BackupManifest } from "./manifest.ts";
import { BACKUP_TOKEN_HEADER, type BackupAccessFile } from "./server-access.ts";

/** The administrators' backup call (server/routes/backup.ts). */
export const BACKUP_PATH = "/api/admin/backup";

/**
 * Asks the running server for a backup (core/backup/server-access.ts) and saves it to `out`,
 * under a temporary name until the whole archive has arrived and its manifest reads.
 */
export async function backupFromServer(
  access: BackupAccessFile,
  out: string,
): Promise<BackupManifest> {
  // node:http rather than fetch: the server answers once the whole archive is written, which on a
  // large site takes longer than fetch waits for an answer's headers (300 s).
  let response: http.IncomingMessage;
  try {
    response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get(new URL(BACKUP_PATH, access.url), { headers: { [BACKUP_TOKEN_HEADER]: access.token } })
        .on("response", resolve)
        .on("error", reject),
    );
  } catch (error) {
    throw new BackupError(
      `The server (pid ${access.pid}) owns DATA_DIR, and did not answer at ${access.url}: ${(error as Error).message}`,
    );
  }
  if (response.statusCode !== 200) {
    let text = "";
    for await (const chunk of response) text += String(chunk);
    let message = text.slice(0, 300);
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      /* not JSON: the text itself */
    }
    throw new BackupError(`The server answered ${response.statusCode} to the backup: ${message}`);
  }
  const partial = `${out}.partial-${process.pid}`;
  try {
    await pipeline(response, fs.createWriteStream(partial, { flags: "wx" }));
    const manifest = await readManifest(partial);
    await fs.promises.rename(partial, out);
    return manifest;
  } finally {
    await fs.promises.rm(partial, { force: true });
  }
}
