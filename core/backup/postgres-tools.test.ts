import { afterEach, describe, expect, it } from "vitest";
import { libpqTarget, toolMajorVersion } from "./postgres-tools.ts";

const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
});

describe("PostgreSQL's client programs", () => {
  it("say in one line how to get pg_dump when PATH has none", async () => {
    process.env.PATH = "/nonexistent";
    await expect(toolMajorVersion("pg_dump")).rejects.toThrow(
      /^pg_dump was not found on PATH: install PostgreSQL's client programs/,
    );
  });

  it("read the installed pg_restore's major version", async () => {
    expect(await toolMajorVersion("pg_restore")).toBeGreaterThanOrEqual(13);
  });

  it("are given the password in their environment, never on the command line", () => {
    const target = libpqTarget("postgres://site:s%23cret@db.example:5433/chalk?sslmode=require");
    expect(target.dbname).toBe("postgres://site@db.example:5433/chalk?sslmode=require");
    expect(target.env).toEqual({ PGPASSWORD: "s#cret" });
    expect(libpqTarget("postgres://site@127.0.0.1/chalk").env).toEqual({});
  });
});
