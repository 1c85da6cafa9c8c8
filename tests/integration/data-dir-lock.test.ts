import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// Issue 37: two containers sharing a volume are each pid 1, so a lock that trusts pids lets the
// second in. These run the lock (db/lock.ts) in processes that are each pid 1 of a PID namespace
// of their own (`unshare`, as root), and in plain processes.

const root = path.resolve(import.meta.dirname, "../..");
const holder = ["--import", "tsx", "tests/helpers/hold-data-dir-lock.ts"];
const unshare = ["--pid", "--fork", "--mount-proc", "--"];

/** Why PID namespaces cannot be made here, or undefined when they can. */
function namespaceProblem(): string | undefined {
  const probe = spawnSync("unshare", [...unshare, "sh", "-c", "echo $$"], { encoding: "utf8" });
  if (probe.error) return `unshare is unavailable (${probe.error.message})`;
  if (probe.status !== 0 || probe.stdout.trim() !== "1")
    return `unshare --pid is not permitted (${(probe.stderr || probe.stdout).trim()})`;
  return undefined;
}
const problem = namespaceProblem();
// CI runs as root, where namespaces work: there a problem fails the test instead of skipping it.
if (problem && !process.env.CI)
  console.warn(`data-dir-lock: PID namespace tests skipped: ${problem}`);

interface Holder {
  /** The process spawned here: node itself, or the `unshare` whose child node is. */
  pid: number;
  output(): string;
  exited: Promise<number | null>;
  /** Resolves when the lock is held ("locked as pid N"), rejects when the process ended first. */
  locked: Promise<string>;
}

const running: Holder[] = [];
afterEach(() => {
  for (const child of running.splice(0)) killTree(child.pid);
});

function startHolder(dataDir: string, inNamespace: boolean): Holder {
  const [command, args] = inNamespace
    ? ["unshare", [...unshare, process.execPath, ...holder, dataDir]]
    : [process.execPath, [...holder, dataDir]];
  const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const locked = new Promise<string>((resolve, reject) => {
    const seen = () => {
      const line = /locked as pid (\d+)/.exec(output);
      if (line) resolve(line[1]!);
    };
    child.stdout.on("data", (d) => ((output += d), seen()));
    child.stderr.on("data", (d) => (output += d));
    void exited.then((code) => reject(new Error(`exited ${code} before locking: ${output}`)));
  });
  locked.catch(() => undefined);
  const started: Holder = { pid: child.pid!, output: () => output, exited, locked };
  running.push(started);
  return started;
}

/** The exit code of a holder that should refuse, or "locked" when it took the lock instead. */
function refusal(started: Holder): Promise<number | null | "locked"> {
  return Promise.race([started.exited, started.locked.then(() => "locked" as const)]);
}

/** The child of `unshare --fork`: the namespace's pid 1, as this namespace numbers it. */
function namespaceInit(unsharePid: number): number {
  const children = fs.readFileSync(`/proc/${unsharePid}/task/${unsharePid}/children`, "utf8");
  const pid = Number(children.trim().split(/\s+/)[0]);
  if (!pid) throw new Error(`unshare ${unsharePid} has no child`);
  return pid;
}

function killTree(pid: number) {
  try {
    for (const child of fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/))
      if (child) process.kill(Number(child), "SIGKILL");
  } catch {
    /* gone */
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    /* gone */
  }
}

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), "cbd-dirlock-"));
}

describe.skipIf(problem && !process.env.CI)("DATA_DIR's lock across PID namespaces", () => {
  it("refuses a second pid 1 on the same DATA_DIR, and lets a new one in at once after SIGKILL", async () => {
    expect(problem).toBeUndefined();
    const dataDir = tempDir();
    try {
      const first = startHolder(dataDir, true);
      expect(await first.locked).toBe("1");

      const second = startHolder(dataDir, true);
      expect(await refusal(second)).toBe(1);
      const line = second.output().trim();
      expect(line.split("\n")).toHaveLength(1);
      expect(line).toBe(
        `Another Chalkboard Deals process (pid 1, which may be in another container) is already using DATA_DIR ${dataDir}; stop it or choose another DATA_DIR.`,
      );

      // Kill the namespace's init itself, as a container dies: no exit handler runs.
      const killedAt = performance.now();
      process.kill(namespaceInit(first.pid), "SIGKILL");
      await first.exited;
      expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(true); // left behind, unlocked

      const third = startHolder(dataDir, true);
      expect(await third.locked).toBe("1");
      const tookMs = performance.now() - killedAt;
      console.log(
        `data-dir-lock: a new pid 1 held the lock ${Math.round(tookMs)} ms after SIGKILL`,
      );
      // Its own start (node and tsx) only: there is no staleness to wait out.
      expect(tookMs).toBeLessThan(20_000);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("DATA_DIR's lock between plain processes", () => {
  it("refuses a second process naming the holder's pid, and lets a new one in after SIGKILL", async () => {
    const dataDir = tempDir();
    try {
      const first = startHolder(dataDir, false);
      expect(await first.locked).toBe(String(first.pid));

      const second = startHolder(dataDir, false);
      expect(await refusal(second)).toBe(1);
      expect(second.output().trim()).toBe(
        `Another Chalkboard Deals process (pid ${first.pid}, which may be in another container) is already using DATA_DIR ${dataDir}; stop it or choose another DATA_DIR.`,
      );

      process.kill(first.pid, "SIGKILL");
      await first.exited;
      const third = startHolder(dataDir, false);
      expect(await third.locked).toBe(String(third.pid));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
