import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * How `npm run backup` reaches the server that owns an embedded database (one process may open
 * DATA_DIR, db/lock.ts): the server writes its local address and a random token into
 * DATA_DIR/backup-access.json, readable by its owner only, and the command sends the token back in
 * the `X-Backup-Token` header. Whoever may read that file may read the database's own files, so it
 * grants nothing new. Each token is good for one backup: the server writes a new one as it accepts
 * it, and removes the file when it stops (docs/decisions/0096-backups.md).
 */
export const BACKUP_ACCESS_FILE = "backup-access.json";
export const BACKUP_TOKEN_HEADER = "x-backup-token";

export interface BackupAccessFile {
  pid: number;
  /** The server's address on this machine, e.g. http://127.0.0.1:3000. */
  url: string;
  token: string;
}

/** The server's side: the file, its token, and its removal. */
export interface BackupAccess {
  /** True once for the current token, which is then replaced. */
  accept(token: string): boolean;
  remove(): void;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

export function publishBackupAccess(dataDir: string, url: string): BackupAccess {
  const file = path.join(dataDir, BACKUP_ACCESS_FILE);
  let token = "";
  const write = () => {
    token = randomBytes(32).toString("base64url");
    const temporary = `${file}.${process.pid}`;
    fs.rmSync(temporary, { force: true });
    fs.writeFileSync(
      temporary,
      JSON.stringify({ pid: process.pid, url, token } satisfies BackupAccessFile),
      { mode: 0o600, flag: "wx" },
    );
    fs.renameSync(temporary, file);
  };
  write();
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      const current = JSON.parse(fs.readFileSync(file, "utf8")) as BackupAccessFile;
      if (current.pid === process.pid) fs.unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
  process.once("exit", remove);
  return {
    accept(given) {
      if (removed || !token || !timingSafeEqual(digest(given), digest(token))) return false;
      write();
      return true;
    },
    remove,
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The running server's access, or undefined when no server has published one (or it died). */
export function readBackupAccess(dataDir: string): BackupAccessFile | undefined {
  let access: BackupAccessFile;
  try {
    access = JSON.parse(
      fs.readFileSync(path.join(dataDir, BACKUP_ACCESS_FILE), "utf8"),
    ) as BackupAccessFile;
  } catch {
    return undefined;
  }
  return access.pid && isRunning(access.pid) ? access : undefined;
}
