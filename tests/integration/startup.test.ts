import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** The production entry point as `npm start` runs it (build/ must exist, as `npm test` ensures). */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: "", ...env },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitUntilServing(url: string, child: ChildProcessWithoutNullStreams) {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error("server exited early");
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("server did not start");
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-start-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("the server process", () => {
  it("stops at once on a bad environment value, naming it", async () => {
    const server = startServer({ DATA_DIR: dataDir, PORT: "not-a-port" });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/Invalid environment variable PORT="not-a-port"/);
  });

  it("serves, refuses a second process on the same DATA_DIR, and shuts down cleanly on SIGTERM", async () => {
    const port = 3900 + Math.floor(Math.random() * 90);
    const first = startServer({
      DATA_DIR: dataDir,
      PORT: String(port),
      DEMO_DATA: "off",
      // Left over from an older version: the start says once that it is no longer used.
      REDIS_URL: "redis://127.0.0.1:6379",
    });
    await waitUntilServing(`http://127.0.0.1:${port}/api/social`, first.child);
    expect(first.output().match(/REDIS_URL is set but no longer used/g)).toHaveLength(1);

    const second = startServer({ DATA_DIR: dataDir, PORT: String(port + 1), DEMO_DATA: "off" });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/already using DATA_DIR/);
    expect(second.output().trim().split("\n")).toHaveLength(1);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(false);
  }, 90_000);
});
