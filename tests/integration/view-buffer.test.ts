import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createViewBuffer } from "../../core/posts/view-buffer.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * Views of pages served from the page cache are noted in memory and written together
 * (core/posts/view-buffer.ts): the same counts as one write per view, in one statement.
 */

let t: TestApp;
let deals: { id: number }[];

beforeAll(async () => {
  t = await createTestApp();
  deals = (
    await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("status", "=", "active")
      .orderBy("id", "desc")
      .limit(2)
      .execute()
  ).map((row) => ({ id: Number(row.id) }));
});
afterAll(async () => {
  await t?.close();
});

async function viewsOf(id: number): Promise<number> {
  const row = await t.deps.db
    .selectFrom("posts")
    .select("views")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return Number(row.views);
}

const LIMITS = { delayMs: 60_000, maxPending: 100, maxHeld: 1_000 };

function quietLog() {
  const errors: unknown[] = [];
  return { errors, error: (entry: unknown) => void errors.push(entry) };
}

describe("the cached pages' view buffer", () => {
  it("writes nothing until it flushes, then each visitor's first view of the day once", async () => {
    const [a, b] = deals as [{ id: number }, { id: number }];
    const before = { a: await viewsOf(a.id), b: await viewsOf(b.id) };
    const log = quietLog();
    const buffer = createViewBuffer(t.deps.db, log, LIMITS);
    const day = "2026-11-20";
    buffer.add({ postId: a.id, day, visitorKey: "buffer-visitor-1" });
    buffer.add({ postId: a.id, day, visitorKey: "buffer-visitor-1" }); // again: once
    buffer.add({ postId: a.id, day, visitorKey: "buffer-visitor-2" });
    buffer.add({ postId: b.id, day, visitorKey: "buffer-visitor-1" });
    expect(await viewsOf(a.id)).toBe(before.a);

    await buffer.flush();
    expect(await viewsOf(a.id)).toBe(before.a + 2);
    expect(await viewsOf(b.id)).toBe(before.b + 1);

    // The same visitors the same day, in a later batch: already counted.
    buffer.add({ postId: a.id, day, visitorKey: "buffer-visitor-2" });
    buffer.add({ postId: a.id, day: "2026-11-21", visitorKey: "buffer-visitor-2" });
    await buffer.flush();
    expect(await viewsOf(a.id)).toBe(before.a + 3);
    expect(log.errors).toEqual([]);
  });

  it("writes at once when maxPending views wait, and by itself after delayMs", async () => {
    const [a] = deals as [{ id: number }];
    const before = await viewsOf(a.id);
    const buffer = createViewBuffer(t.deps.db, quietLog(), {
      delayMs: 50,
      maxPending: 3,
      maxHeld: 100,
    });
    const day = "2026-11-22";
    for (let i = 0; i < 3; i++) buffer.add({ postId: a.id, day, visitorKey: `burst-${i}` });
    await expect.poll(() => viewsOf(a.id)).toBe(before + 3);

    buffer.add({ postId: a.id, day, visitorKey: "late" });
    await expect.poll(() => viewsOf(a.id)).toBe(before + 4);
  });

  it("holds at most maxHeld views while they wait", async () => {
    const [a] = deals as [{ id: number }];
    const before = await viewsOf(a.id);
    const buffer = createViewBuffer(t.deps.db, quietLog(), {
      delayMs: 60_000,
      maxPending: 100,
      maxHeld: 2,
    });
    const day = "2026-11-19";
    for (let i = 0; i < 5; i++) buffer.add({ postId: a.id, day, visitorKey: `held-${i}` });
    await buffer.flush();
    expect(await viewsOf(a.id)).toBe(before + 2);
  });

  it("leaves out views of a post deleted meanwhile and still counts the others", async () => {
    const [a] = deals as [{ id: number }];
    const before = await viewsOf(a.id);
    const log = quietLog();
    const buffer = createViewBuffer(t.deps.db, log, LIMITS);
    const day = "2026-11-23";
    buffer.add({ postId: 987_654_321, day, visitorKey: "gone" });
    buffer.add({ postId: a.id, day, visitorKey: "still-here" });
    await buffer.flush();
    expect(await viewsOf(a.id)).toBe(before + 1);
    expect(log.errors).toEqual([]);
  });

  it("logs a write that fails and goes on with the next batch", async () => {
    const [a] = deals as [{ id: number }];
    const before = await viewsOf(a.id);
    const log = quietLog();
    const buffer = createViewBuffer(t.deps.db, log, LIMITS);
    // A day no date column takes: the whole statement fails, the buffer does not throw.
    buffer.add({ postId: a.id, day: "not-a-day", visitorKey: "broken" });
    await buffer.flush();
    expect(log.errors).toHaveLength(1);
    buffer.add({ postId: a.id, day: "2026-11-24", visitorKey: "after-failure" });
    await buffer.flush();
    expect(await viewsOf(a.id)).toBe(before + 1);
  });
});
