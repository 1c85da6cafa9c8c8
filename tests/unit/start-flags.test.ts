import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { startScriptFlags, UsageError } from "../../bench/report.ts";

// The server's V8 heap limits and WebAssembly compiler (docs/decisions/0100) are Node flags, which only the command line
// sets: `npm start`, the container image and the systemd unit of docs/deploy.md must give the same.
const read = (file: string) => fs.readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");

describe("the server's Node flags", () => {
  const flags = startScriptFlags(
    (JSON.parse(read("package.json")) as { scripts: { start: string } }).scripts.start,
  );

  it("limit the V8 heap in npm start", () => {
    // 384 MB of old space: the server's held 75–90 MB under the bench's requests; the reputation
    // job, which passed 380 MB at a million deals, now reads only the deals that earn something
    // (docs/decisions/0100, tests/integration/reputation.test.ts).
    expect(flags).toContain("--max-old-space-size=384");
    expect(flags).toContain("--max-semi-space-size=4");
  });

  it("keep PGlite's WebAssembly on V8's baseline compiler", () => {
    // Optimizing PGlite's SQL parser alone took 600 MB for 3 s at the first queries.
    expect(flags).toContain("--liftoff-only");
  });

  it("are the same in the container image and the systemd unit", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read("Dockerfile"));
    expect(JSON.parse(cmd![1]!)).toEqual(["node", ...flags, "scripts/start.mjs"]);
    const execStart = /^ExecStart=\S+\/node (.*) scripts\/start\.mjs$/m.exec(
      read("docs/deploy.md"),
    );
    expect(execStart![1]!.split(" ")).toEqual(flags);
  });

  it("are read from a start script of that shape only", () => {
    expect(startScriptFlags("node scripts/start.mjs")).toEqual([]);
    expect(startScriptFlags("node --a=1 --b scripts/start.mjs")).toEqual(["--a=1", "--b"]);
    expect(() => startScriptFlags("tsx server/main.ts")).toThrow(UsageError);
    expect(() => startScriptFlags("node x.js scripts/start.mjs")).toThrow(UsageError);
  });
});
