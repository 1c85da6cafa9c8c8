import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCardsByIds } from "../../core/cards/deal-card-query.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

// core/cards/deal-card-query.ts: the cards of one list of ids are read once in a few seconds, and
// dropped at once by any change a card shows.

let t: TestApp;
let client: TestClient;
let ids: number[];

beforeAll(async () => {
  t = await createTestApp();
  client = new TestClient(t.app);
  await client.signInAs(t.deps.db, await createTestUser(t.deps.db));
  const rows = await t.deps.db
    .selectFrom("posts")
    .select("id")
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .orderBy("id")
    .limit(3)
    .execute();
  ids = rows.map((row) => row.id);
});
afterAll(async () => {
  await t?.close();
});

/** Sets a card's title behind the services' backs: no change is reported. */
async function retitleQuietly(id: number, title: string) {
  await t.deps.db.updateTable("posts").set({ title }).where("id", "=", id).execute();
}

const titleOf = async (id: number) =>
  (await findCardsByIds(t.deps.db, ids)).find((row) => row.id === id)?.title;

describe("cards by id", () => {
  it("are read once for the same ids, in their order", async () => {
    const first = await findCardsByIds(t.deps.db, ids);
    expect(first.map((row) => row.id)).toEqual(ids);
    await retitleQuietly(ids[0]!, "Kept title check");
    // The same list again: the kept rows, not the write nobody reported.
    expect(await titleOf(ids[0]!)).toBe(first[0]!.title);
    // Another list of ids is read afresh.
    const reversed = await findCardsByIds(t.deps.db, [...ids].reverse());
    expect(reversed.map((row) => row.id)).toEqual([...ids].reverse());
    expect(reversed.at(-1)!.title).toBe("Kept title check");
  });

  it("are dropped by a change a card shows, such as a vote", async () => {
    const kept = await findCardsByIds(t.deps.db, ids);
    await retitleQuietly(ids[1]!, "Dropped on a vote");
    const voted = await client.post("/api/product_like_unlike", {
      post_id: ids[2]!,
      post_type: "d",
      btn_type: "like",
    });
    expect(voted.statusCode).toBe(200);
    const rows = await findCardsByIds(t.deps.db, ids);
    expect(rows[1]!.title).toBe("Dropped on a vote");
    expect(rows[2]!.likes_count).toBe(kept[2]!.likes_count + 1);
  });

  it("are read afresh inside a transaction", async () => {
    await findCardsByIds(t.deps.db, ids);
    await retitleQuietly(ids[0]!, "Seen by a transaction");
    const title = await t.deps.db
      .transaction()
      .execute(async (tx) => (await findCardsByIds(tx, ids))[0]!.title);
    expect(title).toBe("Seen by a transaction");
  });
});
