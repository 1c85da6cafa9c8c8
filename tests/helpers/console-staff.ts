import type { UserRole } from "../../db/schema.ts";
import type { TestApp } from "./app.ts";
import { TestClient } from "./session.ts";
import { createTestUser } from "./users.ts";

/** A signed-in client of a fresh user with this role, and the user's id. */
export async function signInWithRole(
  t: TestApp,
  role: UserRole,
  name = `Test ${role}`,
): Promise<{ id: number; client: TestClient }> {
  const id = await createTestUser(t.deps.db, { name });
  if (role !== "member") {
    await t.deps.db.updateTable("users").set({ role }).where("id", "=", id).execute();
  }
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, id);
  return { id, client };
}
