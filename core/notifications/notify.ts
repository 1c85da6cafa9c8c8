import type { DbOrTx } from "../../db/index.ts";

/** One in-site message to one user: what happened (kind), in words, and where to look. */
export interface NewNotification {
  userId: number;
  /** What kind of event it tells of: "report_resolved", "moderation"… */
  kind: string;
  message: string;
  /** A site path to the item concerned; "" when there is nothing to show. */
  link?: string;
}

/**
 * Leaves in-site messages for users, inside the caller's transaction: a notification exists only
 * if the action it tells of was committed. Any feature that tells users something writes here.
 */
export async function notify(tx: DbOrTx, notifications: readonly NewNotification[]) {
  if (notifications.length === 0) return;
  await tx
    .insertInto("notifications")
    .values(
      notifications.map((n) => ({
        user_id: n.userId,
        kind: n.kind,
        message: n.message,
        link: n.link ?? "",
      })),
    )
    .execute();
}
