import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "./lock.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-lock-"));
  dirs.push(dir);
  return dir;
}

describe("lockDataDir", () => {
  it("refuses while another live process holds the folder", async () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"]);
    try {
      fs.writeFileSync(path.join(dir, "server.lock"), String(other.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(/already using DATA_DIR/);
    } finally {
      other.kill();
    }
  });

  it("takes over a lock left by a process that is gone, and releases it", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "server.lock"), "999999999");
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "server.lock"))).toBe(false);
  });

  it("creates missing parent folders", () => {
    const dir = path.join(tempDir(), "a", "b");
    const release = lockDataDir(dir);
    expect(fs.existsSync(path.join(dir, "server.lock"))).toBe(true);
    release();
  });
});
