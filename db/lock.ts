import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite has no lock between processes, and two on one folder lose writes. The first process writes
 * its pid to DATA_DIR/server.lock (exclusive create); a later one refuses while that pid lives and
 * takes over a lock left by a process that died.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "server.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(fs.readFileSync(file, "utf8").trim());
      if (holder && holder !== process.pid && isRunning(holder)) {
        throw new DataDirLockedError(
          `Another Chalkboard Deals server (pid ${holder}) is already using DATA_DIR ${dataDir}; stop it or choose another DATA_DIR.`,
        );
      }
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new DataDirLockedError(`Could not lock DATA_DIR ${dataDir}`);
}
