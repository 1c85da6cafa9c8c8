import { EventEmitter } from "node:events";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { planModeFor, sendMarkedStatementsPrepared } from "./prepared.ts";

/** A pool client that records what it is sent, in a transaction status the test sets. */
function recordingClient() {
  const pool = new EventEmitter();
  sendMarkedStatementsPrepared(pool as unknown as pg.Pool, { planOnce: true });
  const sent: unknown[] = [];
  const client = {
    status: "I",
    getTransactionStatus() {
      return this.status;
    },
    query(query: unknown) {
      sent.push(typeof query === "string" ? query : (query as { name?: string }).name);
      return Promise.resolve({ rows: [] });
    },
  };
  pool.emit("connect", client);
  const send = (text: string, values?: unknown[]) =>
    (client.query as (text: string, values?: unknown[]) => Promise<unknown>)(text, values);
  return { client, sent, send };
}

const MARKED = "select /* prepared */ id from posts where id = $1";
const NAMED = expect.stringMatching(/^p_/);

describe("the plan mode a query wants (PGlite, docs/decisions/0075)", () => {
  it("generic plans for a named statement, the default for the unnamed one", () => {
    expect(planModeFor({ name: "p_abc", text: "select $1::int", values: [1] }, undefined)).toBe(
      "force_generic_plan",
    );
    expect(planModeFor({ name: "p_abc", text: "select $1::int" }, [1])).toBe("force_generic_plan");
    expect(planModeFor("select $1::int", [1])).toBe("auto");
    expect(planModeFor({ text: "select $1::int", values: [1] }, undefined)).toBe("auto");
  });

  it("leaves the mode alone for what binds nothing", () => {
    expect(planModeFor("select 1", undefined)).toBeUndefined();
    expect(planModeFor("select 1", [])).toBeUndefined();
    expect(planModeFor({ text: "select 1" }, undefined)).toBeUndefined();
    // What is not a query's text (a cursor, a stream), or no query at all.
    expect(planModeFor({ submit() {} }, [1])).toBeUndefined();
    expect(planModeFor(undefined, [1])).toBeUndefined();
  });

  it("is set before a statement that wants another, and only then", async () => {
    const { sent, send } = recordingClient();
    await send(MARKED, [1]);
    await send(MARKED, [2]);
    await send("select $1::int", [3]);
    await send("select 1");
    await send("select $1::int", [4]);
    await send(MARKED, [5]);
    expect(sent).toEqual([
      "SET plan_cache_mode = force_generic_plan",
      NAMED,
      NAMED,
      "SET plan_cache_mode = auto",
      "select $1::int",
      "select 1",
      "select $1::int",
      "SET plan_cache_mode = force_generic_plan",
      NAMED,
    ]);
  });

  it("is set for the transaction only inside one, and again after it", async () => {
    const { client, sent, send } = recordingClient();
    await send("select $1::int", [1]);
    client.status = "T";
    await send(MARKED, [2]);
    await send(MARKED, [3]);
    await send("select $1::int", [4]);
    client.status = "I"; // committed or rolled back: the session's own mode again
    await send("select $1::int", [5]);
    await send(MARKED, [6]);
    expect(sent).toEqual([
      "SET plan_cache_mode = auto",
      "select $1::int",
      "SET LOCAL plan_cache_mode = force_generic_plan",
      NAMED,
      NAMED,
      "SET LOCAL plan_cache_mode = auto",
      "select $1::int",
      "select $1::int",
      "SET plan_cache_mode = force_generic_plan",
      NAMED,
    ]);
  });
});
