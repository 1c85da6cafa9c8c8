import type { DbOrTx } from "../../../db/index.ts";
import { EMAIL_KIND_INFO, EMAIL_KINDS, type EmailKind } from "./email-kinds.ts";

/** A member's mail choices: every kind, with its default where they changed nothing. */
export async function findEmailPreferences(
  db: DbOrTx,
  userId: number,
): Promise<Record<EmailKind, boolean>> {
  const rows = await db
    .selectFrom("email_preferences")
    .select(["kind", "enabled"])
    .where("user_id", "=", userId)
    .execute();
  const chosen = new Map(rows.map((row) => [row.kind, row.enabled]));
  return Object.fromEntries(
    EMAIL_KINDS.map((kind) => [kind, chosen.get(kind) ?? EMAIL_KIND_INFO[kind].defaultOn]),
  ) as Record<EmailKind, boolean>;
}

/** Whether the member wants mails of `kind`. */
export async function wantsMail(db: DbOrTx, userId: number, kind: EmailKind): Promise<boolean> {
  const row = await db
    .selectFrom("email_preferences")
    .select("enabled")
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .executeTakeFirst();
  return row?.enabled ?? EMAIL_KIND_INFO[kind].defaultOn;
}

/** Saves the given kinds' choices (the others stay as they are). */
export async function saveEmailPreferences(
  db: DbOrTx,
  userId: number,
  choices: Partial<Record<EmailKind, boolean>>,
  at: Date,
) {
  const rows = Object.entries(choices)
    .filter((entry): entry is [EmailKind, boolean] => typeof entry[1] === "boolean")
    .map(([kind, enabled]) => ({ user_id: userId, kind, enabled, updated_at: at }));
  if (rows.length === 0) return;
  await db
    .insertInto("email_preferences")
    .values(rows)
    .onConflict((oc) =>
      oc.columns(["user_id", "kind"]).doUpdateSet((eb) => ({
        enabled: eb.ref("excluded.enabled"),
        updated_at: eb.ref("excluded.updated_at"),
      })),
    )
    .execute();
}
