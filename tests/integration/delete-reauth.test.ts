import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES as M } from "../../core/people/accounts/schema.ts";
import { hashPassword } from "../../core/auth/password.ts";
import { findSessionUser } from "../../core/auth/sessions.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { DEFAULT_CLIENTS, startOidcProvider, type OidcProvider } from "../helpers/oidc.ts";
import { TestClient } from "../helpers/session.ts";

// Deleting an account needs a recent sign-in (core/people/accounts/policy.ts), judged by the app's clock.

const PASSWORD = "Right#Pass42";

let t: TestApp;
let provider: OidcProvider;
/** How far the app's clock is ahead of the real one. */
let aheadMs = 0;
const later = (ms: number) => {
  aheadMs += ms;
};

beforeAll(async () => {
  provider = await startOidcProvider();
  t = await createTestApp({
    seed: "none",
    env: provider.env(),
    now: () => new Date(Date.now() + aheadMs),
  });
});

afterAll(async () => {
  await t?.close();
  await provider?.close();
});

let counter = 0;
async function member() {
  counter += 1;
  const email = `delete-${counter}-${Date.now()}@example.com`;
  const row = await t.deps.db
    .insertInto("users")
    .values({
      name: "Leaving Member",
      email,
      password_hash: await hashPassword(PASSWORD),
      email_verified_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}

describe("deleting an account needs a sign-in within the last 10 minutes", () => {
  async function signedIn() {
    const { id, email } = await member();
    const client = new TestClient(t.app);
    await client.get("/api/general_settings");
    const response = await client.request({
      method: "POST",
      url: "/api/signin",
      payload: { email, password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    return { id, client };
  }

  it("deletes 9 minutes after the sign-in", async () => {
    const { id, client } = await signedIn();
    later(9 * 60_000);
    const response = await client.post("/api/user_deleted", { user_id: id });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(M.userDeleted);
  });

  it("refuses 11 minutes after it, and keeps the account", async () => {
    const { id, client } = await signedIn();
    later(11 * 60_000);
    const response = await client.post("/api/user_deleted", { user_id: id });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(M.deleteNeedsRecentSignin);
    const row = await t.deps.db
      .selectFrom("users")
      .select("deleted_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeNull();
  });

  it("applies to the provider's delete call as well", async () => {
    const sub = `delete-social-${Date.now()}`;
    const claims = { sub, email: `${sub}@example.com`, email_verified: true, name: "D" };
    const call = async (url: string, bearer?: string) =>
      t.app.inject({
        method: "POST",
        url,
        payload: {
          provider: "google",
          id_token: await provider.idToken(DEFAULT_CLIENTS.google, claims),
        },
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      });
    const created = await call("/api/social_signin");
    const session = created.json().data.token as string;
    later(11 * 60_000);
    const stale = await call("/api/social_signin_deleted", session);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().message).toBe(M.deleteNeedsRecentSignin);
    const fresh = (await call("/api/social_signin")).json().data.token as string;
    later(9 * 60_000);
    expect((await call("/api/social_signin_deleted", fresh)).statusCode).toBe(200);
    expect(await findSessionUser(t.deps.db, fresh, new Date(Date.now() + aheadMs))).toBeNull();
  });
});
