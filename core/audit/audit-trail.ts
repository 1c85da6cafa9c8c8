import type { DbOrTx } from "../../db/index.ts";
import type { CurrentUser } from "../auth/sessions.ts";

/**
 * Who did it: a signed-in staff member, or the shell (`npm run user:role`), which has no account:
 * its entries carry no actor id and the name "shell".
 */
export type AuditActor = Pick<CurrentUser, "id" | "name"> | typeof SHELL_ACTOR;

export const SHELL_ACTOR = { id: null, name: "shell" } as const;

/** One console action, as the audit log keeps it. */
export interface AuditEntry {
  /** What was done, as `<area>.<verb>`: "post.hide", "store.update", "user.suspend"… */
  action: string;
  /** What it was done to: "d", "g", "comment", "user", "store", "category", "setting"… */
  itemType?: string;
  itemId?: string | number;
  reason?: string;
  /** For edits: the fields that changed, as they were and as they became. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * Records a console action in the append-only audit log. Call it inside the action's own
 * transaction, so an action and its record are written together or not at all.
 */
export async function recordAudit(tx: DbOrTx, actor: AuditActor, entry: AuditEntry) {
  await tx
    .insertInto("audit_log")
    .values({
      actor_id: actor.id,
      actor_name: actor.name,
      action: entry.action,
      item_type: entry.itemType ?? "",
      item_id: entry.itemId === undefined ? "" : String(entry.itemId),
      reason: entry.reason ?? "",
      before: entry.before ? JSON.stringify(entry.before) : null,
      after: entry.after ? JSON.stringify(entry.after) : null,
    })
    .execute();
}

/**
 * The fields of `after` whose values differ from `before`, each side keeping only those: what an
 * edit's audit entry shows.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = before[key];
    const same =
      old instanceof Date || value instanceof Date
        ? String(old instanceof Date ? old.toISOString() : old) ===
          String(value instanceof Date ? value.toISOString() : value)
        : JSON.stringify(old) === JSON.stringify(value);
    if (!same) {
      was[key] = old;
      now[key] = value;
    }
  }
  return { before: was, after: now };
}
