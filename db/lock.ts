import fs from "node:fs";
import path from "node:path";
import { tryLock, unlock } from "fs-native-extensions";

export class DataDirLockedError extends Error {}

const LOCK_FILE = "server.lock";

interface HeldLock {
  fd: number;
  file: string;
  /** How many lockDataDir calls of this process hold it and have not released it yet. */
  holders: number;
}

// One lock per folder per process, kept on globalThis: `npm start` (scripts/start.mjs) locks from
// the TypeScript source before building, then the compiled server locks again in the same process
// through another copy of this module. An OS lock belongs to one open file description, so a
// second open of the same file would conflict with the first: the process re-enters its own lock.
const registryKey = Symbol.for("chalkboard-deals.dataDirLocks");
const registry = ((globalThis as Record<symbol, unknown>)[registryKey] ??= new Map()) as Map<
  string,
  HeldLock
>;

/** The pid the holder wrote into the lock file, if it can be read: a help for the message only. */
function holderPid(fd: number): number | undefined {
  try {
    const buffer = Buffer.alloc(32);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const pid = Number(buffer.subarray(0, read).toString("utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function sameFile(fd: number, file: string): boolean {
  try {
    const held = fs.fstatSync(fd);
    const named = fs.statSync(file);
    return held.ino === named.ino && held.dev === named.dev;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

function closeQuietly(fd: number) {
  try {
    fs.closeSync(fd);
  } catch {
    /* already closed */
  }
}

function dropLock(held: HeldLock) {
  // Removed while still locked, so no other process can lock the name meanwhile; one that opened
  // the old file before this sees, once it holds the lock, that the name is gone, and opens anew.
  try {
    if (sameFile(held.fd, held.file)) fs.unlinkSync(held.file);
  } catch {
    /* gone already, or DATA_DIR itself removed */
  }
  try {
    unlock(held.fd);
  } catch {
    /* closing releases it too */
  }
  closeQuietly(held.fd);
}

let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // The kernel releases the lock when the process dies however it dies; removing the file at a
  // normal exit only keeps DATA_DIR tidy (core/backup/restore.ts, tests/integration/startup.test.ts).
  process.once("exit", () => {
    for (const [key, held] of registry) {
      registry.delete(key);
      dropLock(held);
    }
  });
}

/**
 * PGlite has no lock between processes, and two on one folder lose writes. DATA_DIR/server.lock is
 * locked with an OS lock (fs-native-extensions: an open-file-description fcntl lock on Linux,
 * docs/decisions/0104-an-os-lock-on-data-dir.md) that the kernel releases when the process dies,
 * so it also holds between containers that share the volume and are each pid 1. The holder writes
 * its pid in the file for the refusal's message only. Answers the release: unlock, close, remove.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(fs.realpathSync(dataDir), LOCK_FILE);
  const held = registry.get(file) ?? acquire(dataDir, file);
  held.holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.holders--;
    if (held.holders > 0 || registry.get(file) !== held) return;
    registry.delete(file);
    dropLock(held);
  };
}

function acquire(dataDir: string, file: string): HeldLock {
  // A few rounds at most: each retry means a holder removed the file between our open and lock.
  for (let attempt = 0; attempt < 5; attempt++) {
    const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
    let granted: boolean;
    try {
      granted = tryLock(fd);
    } catch (error) {
      closeQuietly(fd);
      const reason = (error as Error).message;
      throw new DataDirLockedError(
        `Could not lock DATA_DIR ${dataDir} (${reason}); DATA_DIR must be on a local filesystem that supports file locks.`,
      );
    }
    if (!granted) {
      const pid = holderPid(fd);
      closeQuietly(fd);
      const who = pid
        ? `pid ${pid}, which may be in another container`
        : "perhaps in another container";
      throw new DataDirLockedError(
        `Another Chalkboard Deals process (${who}) is already using DATA_DIR ${dataDir}; stop it or choose another DATA_DIR.`,
      );
    }
    if (!sameFile(fd, file)) {
      closeQuietly(fd); // locked a file its holder had just removed
      continue;
    }
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, String(process.pid), 0);
    const held: HeldLock = { fd, file, holders: 0 };
    registry.set(file, held);
    installExitHook();
    return held;
  }
  throw new DataDirLockedError(
    `Could not lock DATA_DIR ${dataDir}: its lock file kept being replaced; is another process starting and stopping on it?`,
  );
}
