import type { DbOrTx } from "../../db/index.ts";
import type { CurrentUser } from "../auth/sessions.ts";

/**
 * Who did it: a signed-in staff member, the shell (`npm run user:role`) or the site itself (an
 * automatic action such as auto-hide). The last two have no account: their entries carry no
 * actor id, only a name.
 */
export type AuditActor = Pick<CurrentUser, "id" | "name"> | { id: null; name: string };

export const SHELL_ACTOR = { id: null, name: "shell" } as const;
export const SYSTEM_ACTOR = { id: null, name: "System" } as const;
/** The name the audit log shows for actions the site took by itself. */
export const SYSTEM_ACTOR_NAME = SYSTEM_ACTOR.name;

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
 * Records an action the site took by itself (the log shows "System"), such as hiding an item that
 * enough members reported. Same transaction rule as recordAudit.
 */
export async function recordSystemAudit(tx: DbOrTx, entry: AuditEntry) {
  await recordAudit(tx, SYSTEM_ACTOR, entry);
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
