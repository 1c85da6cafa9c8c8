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

/** Another process holding `dir`'s lock as the server does, until killed. */
async function otherHolder(dir: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "tests/helpers/hold-data-dir-lock.ts", dir],
    { cwd: path.resolve(import.meta.dirname, ".."), stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => d.toString().includes("locked") && resolve());
    child.on("exit", (code) => reject(new Error(`holder exited ${code}`)));
  });
  return child;
}

describe("lockDataDir", () => {
  it("refuses while another live process holds the folder, naming its pid", async () => {
    const dir = tempDir();
    const other = await otherHolder(dir);
    try {
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(
        `Another Chalkboard Deals process (pid ${other.pid}, which may be in another container) is already using DATA_DIR ${dir}; stop it or choose another DATA_DIR.`,
      );
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("ignores a lock file whose process is gone: only the OS lock counts", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "server.lock"), "1"); // pid 1 lives, but holds no lock
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "server.lock"))).toBe(false);
  });

  it("is re-entrant in one process, held until the last release", async () => {
    const dir = tempDir();
    const outer = lockDataDir(dir); // as scripts/start.mjs does before building
    const inner = lockDataDir(`${dir}/./`); // then the server, the same folder spelt otherwise
    inner();
    inner(); // a second call of one release changes nothing
    const other = spawn(
      process.execPath,
      ["--import", "tsx", "tests/helpers/hold-data-dir-lock.ts", dir],
      { cwd: path.resolve(import.meta.dirname, "..") },
    );
    let output = "";
    other.stderr.on("data", (d) => (output += d));
    expect(await new Promise((resolve) => other.on("exit", resolve))).toBe(1);
    expect(output).toMatch(/already using DATA_DIR/);
    outer();
    expect(fs.existsSync(path.join(dir, "server.lock"))).toBe(false);
    const again = lockDataDir(dir);
    again();
  });

  it("creates missing parent folders", () => {
    const dir = path.join(tempDir(), "a", "b");
    const release = lockDataDir(dir);
    expect(fs.existsSync(path.join(dir, "server.lock"))).toBe(true);
    release();
  });
});
