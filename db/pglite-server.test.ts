import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./faults.ts";
import { createDb, type DbHandle } from "./index.ts";
import { PglitePool } from "./pglite-server.ts";

// PGlite in its own thread, served by PGlite's socket server (db/pglite-server.ts, docs/decisions/
// 0060, 0075): node-postgres connects to it as to a server, over one connection.

let handle: DbHandle;

beforeAll(async () => {
  handle = await createDb({ databaseUrl: "memory://" });
});

afterAll(async () => {
  await handle.close();
});

describe("PGlite in its own thread, over one connection", () => {
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

  it("runs PostgreSQL with the small memory settings of docs/decisions/0100", async () => {
    const setting = async (name: string) =>
      (await handle.pool.query<{ setting: string }>(`SELECT current_setting('${name}') AS setting`))
        .rows[0]!.setting;
    // PGlite's own default is PostgreSQL's: 128MB of shared buffers, 64MB for maintenance.
    expect(await setting("shared_buffers")).toBe("32MB");
    expect(await setting("maintenance_work_mem")).toBe("32MB");
    expect(await setting("temp_buffers")).toBe("4MB");
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

  it("runs named statements, one after another and many at once", async () => {
    const statement = { name: "shared_by_clients", text: "SELECT $1::int * 2 AS twice" };
    expect((await handle.pool.query({ ...statement, values: [2] })).rows).toEqual([{ twice: 4 }]);
    expect((await handle.pool.query({ ...statement, values: [5] })).rows).toEqual([{ twice: 10 }]);
    expect((await handle.pool.query({ ...statement, values: [7] })).rows).toEqual([{ twice: 14 }]);
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) => handle.pool.query({ ...statement, values: [i] })),
    );
    expect(many.map((result) => result.rows[0].twice)).toEqual(
      Array.from({ length: 20 }, (_, i) => i * 2),
    );
  });

  it("holds other queries back while a transaction has the connection", async () => {
    await handle.pool.query("CREATE TABLE held_back (x int)");
    const writer = await handle.pool.connect();
    let count: Promise<number>;
    let settled = false;
    try {
      await writer.query("BEGIN");
      await writer.query("INSERT INTO held_back VALUES (1)");
      // Run in the writer's open transaction, this would count its uncommitted row.
      count = handle.pool.query("SELECT count(*)::int AS n FROM held_back").then((result) => {
        settled = true;
        return result.rows[0].n as number;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(settled).toBe(false);
      await writer.query("ROLLBACK");
    } finally {
      writer.release();
    }
    expect(await count).toBe(0);
  });

  it("fails a query made outside a transaction from inside it within 5 s, naming why", async () => {
    const started = Date.now();
    let failure: unknown;
    await handle.db
      .transaction()
      .execute(async (tx) => {
        await sql`SELECT 1`.execute(tx);
        // The pool's one connection is the transaction's: this waits for its end, for ever.
        await sql`SELECT 2`.execute(handle.db);
      })
      .catch((error: unknown) => (failure = error));
    const waited = Date.now() - started;
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe(
      "Waited 5 s for the embedded database's one connection: an open transaction held it all " +
        "that time (a query made outside a transaction from inside it waits for that " +
        "transaction's end).",
    );
    expect(waited).toBeGreaterThanOrEqual(4_900);
    expect(waited).toBeLessThan(10_000);
    // A request meeting it answers 503 with Retry-After (db/faults.ts), and the database goes on.
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect((await sql<{ n: number }>`SELECT 3 AS n`.execute(handle.db)).rows).toEqual([{ n: 3 }]);
  }, 20_000);

  it("names other queries as the cause when no transaction held the connection", async () => {
    const { host, port, user, database } = handle.pool.options;
    const pool = new PglitePool({ host, port, user, database, connectionTimeoutMillis: 200 });
    const busy = await pool.connect();
    try {
      await expect(pool.query("SELECT 1")).rejects.toThrow(
        "Waited 0.2 s for the embedded database's one connection: other queries kept it busy all " +
          "that time (more traffic than PGlite serves: PostgreSQL is the engine for that).",
      );
    } finally {
      busy.release();
      await pool.end();
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
