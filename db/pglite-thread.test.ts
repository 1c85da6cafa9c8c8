import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "./index.ts";

// PGlite in its own thread (db/pglite-thread.ts, docs/decisions/0060): node-postgres speaks the
// wire protocol to it as to a server, over a few kept clients sharing its one session (0070).

let handle: DbHandle;

beforeAll(async () => {
  handle = await createDb({ databaseUrl: "memory://" });
});

afterAll(async () => {
  await handle.close();
});

describe("PGlite in its own thread", () => {
  it("answers queries, parameters, errors and transactions as a server does", async () => {
    const { rows } = await handle.pool.query<{ sum: number; word: string }>(
      "SELECT $1::int + 2 AS sum, $2::text AS word",
      [40, "café"],
    );
    expect(rows).toEqual([{ sum: 42, word: "café" }]);
    await expect(handle.pool.query("SELECT * FROM no_such_table")).rejects.toThrow(/no_such_table/);
    // The session goes on after an error, and a rolled-back transaction leaves nothing.
    await expect(
      handle.db.transaction().execute(async (tx) => {
        await sql`CREATE TABLE rolled_back (x int)`.execute(tx);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const left = await sql<{
      t: string | null;
    }>`SELECT to_regclass('rolled_back')::text AS t`.execute(handle.db);
    expect(left.rows[0]!.t).toBeNull();
  });

  it("gives a client that replaces a lost one a clean session", async () => {
    const lost = await handle.pool.connect();
    await lost.query({ name: "kept_by_pglite", text: "SELECT 1 AS one" });
    await lost.query("BEGIN");
    await lost.query("CREATE TABLE left_open (x int)");
    lost.release(true); // discarded, as the pool does with a client whose connection failed

    const next = await handle.pool.connect();
    try {
      // The same name again: PGlite would refuse it had the lost client's statement stayed.
      const again = await next.query({ name: "kept_by_pglite", text: "SELECT 2 AS one" });
      expect(again.rows).toEqual([{ one: 2 }]);
      const open = await next.query("SELECT to_regclass('left_open')::text AS t");
      expect(open.rows[0].t).toBeNull();
    } finally {
      next.release();
    }
  });

  it("lets the pool's clients share named statements", async () => {
    const first = await handle.pool.connect();
    const second = await handle.pool.connect();
    try {
      const statement = { name: "shared_by_clients", text: "SELECT $1::int * 2 AS twice" };
      // Each client parses the statement the first time it runs it; the second's Parse would be
      // refused (the name exists in the session) had the thread not answered it itself.
      expect((await first.query({ ...statement, values: [2] })).rows).toEqual([{ twice: 4 }]);
      expect((await second.query({ ...statement, values: [5] })).rows).toEqual([{ twice: 10 }]);
      expect((await first.query({ ...statement, values: [7] })).rows).toEqual([{ twice: 14 }]);
      const many = await Promise.all(
        Array.from({ length: 20 }, (_, i) => handle.pool.query({ ...statement, values: [i] })),
      );
      expect(many.map((result) => result.rows[0].twice)).toEqual(
        Array.from({ length: 20 }, (_, i) => i * 2),
      );
    } finally {
      first.release();
      second.release();
    }
  });

  it("holds the other clients back while one's transaction is open", async () => {
    await handle.pool.query("CREATE TABLE held_back (x int)");
    const writer = await handle.pool.connect();
    const reader = await handle.pool.connect();
    try {
      await writer.query("BEGIN");
      await writer.query("INSERT INTO held_back VALUES (1)");
      let settled = false;
      // Run in the writer's open transaction, this would count its uncommitted row.
      const count = reader.query("SELECT count(*)::int AS n FROM held_back").then((result) => {
        settled = true;
        return result.rows[0].n as number;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(settled).toBe(false);
      await writer.query("ROLLBACK");
      expect(await count).toBe(0);
    } finally {
      writer.release();
      reader.release();
    }
  });

  it("sends large answers whole, and a test image of the database", async () => {
    const { rows } = await handle.pool.query<{ n: number; pad: string }>(
      "SELECT n, repeat('x', 1000) AS pad FROM generate_series(1, 2000) AS n",
    );
    expect(rows).toHaveLength(2000);
    expect(rows[1999]).toEqual({ n: 2000, pad: "x".repeat(1000) });
    const image = await handle.dumpImage!();
    expect(image.size).toBeGreaterThan(1_000_000);
  });
});
