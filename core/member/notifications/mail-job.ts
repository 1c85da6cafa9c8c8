import { sql } from "kysely";
import type { Db } from "../../../db/index.ts";
import { defineJob } from "../../jobs/job.ts";
import type { MailQueue } from "../../mail/queue.ts";
import { notificationsMail } from "../../mail/templates.ts";
import { DEFAULT_SITE_NAME } from "../../settings/defaults.ts";
import {
  EMAIL_KIND_INFO,
  emailKindOf,
  notificationKindsOf,
  type EmailKind,
} from "./email-kinds.ts";

/** At most one notification mail per member and kind in this window; later news waits for the next. */
export const NOTIFICATION_MAIL_WINDOW_MS = 10 * 60 * 1000;
/** A mail lists at most this many notifications, then says how many more there are. */
const MAIL_ITEMS = 10;
/** Members (and kinds) looked at per run; the rest wait for the next minute. */
const BATCH = 500;

/**
 * Every minute: mails members the unread notifications of the kinds they want, through the mail
 * queue (sendToMember: preferences, one-click unsubscribe). A notification read before its mail goes
 * out is never mailed; one of a kind the member switched off is marked as dealt with and dropped.
 */
export const notificationMailJob = defineJob<Record<string, never>>({
  name: "notifications.mail",
  cron: "* * * * *",
  retryLimit: 3,
  retryDelaySeconds: 30,
  timeoutSeconds: 5 * 60,
  keepSeconds: 3600,
  pollSeconds: 1,
});

export interface NotificationMailDeps {
  db: Db;
  mail: MailQueue;
  now: () => Date;
  publicUrl: string;
  log: { info(msg: string): void };
}

async function siteName(db: Db) {
  const row = await db
    .selectFrom("general_settings")
    .select("website_name")
    .where("id", "=", 1)
    .executeTakeFirst();
  return row?.website_name || DEFAULT_SITE_NAME;
}

export function mailNotifications(deps: NotificationMailDeps) {
  const { db, mail, now } = deps;
  return async () => {
    const at = now();
    const pending = await db
      .selectFrom("notifications")
      .select(["user_id", "kind"])
      .where("mailed_at", "is", null)
      .where("read_at", "is", null)
      .groupBy(["user_id", "kind"])
      .orderBy("user_id")
      .limit(BATCH)
      .execute();

    // Kinds no mail is made of (alert matches: the alerts mail them) are dealt with at once.
    const unmailable = [...new Set(pending.map((p) => p.kind))].filter((k) => !emailKindOf(k));
    if (unmailable.length) {
      await db
        .updateTable("notifications")
        .set({ mailed_at: at })
        .where("mailed_at", "is", null)
        .where("kind", "in", unmailable)
        .execute();
    }

    const groups = new Map<string, { userId: number; kind: EmailKind }>();
    for (const row of pending) {
      const kind = emailKindOf(row.kind);
      if (kind) groups.set(`${row.user_id}:${kind}`, { userId: Number(row.user_id), kind });
    }
    if (groups.size === 0) return;
    const site = await siteName(db);
    let sent = 0;
    for (const { userId, kind } of groups.values()) {
      if (await mailOne(userId, kind, at, site)) sent++;
    }
    if (sent) deps.log.info(`notification mails: ${sent} queued`);
  };

  /** One member's mail of one kind, unless they were mailed about it less than 10 minutes ago. */
  async function mailOne(userId: number, kind: EmailKind, at: Date, site: string) {
    return db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom("notification_mail_log")
        .select("last_sent_at")
        .where("user_id", "=", userId)
        .where("kind", "=", kind)
        .forUpdate()
        .executeTakeFirst();
      if (last && at.getTime() - last.last_sent_at.getTime() < NOTIFICATION_MAIL_WINDOW_MS) {
        return false;
      }
      const items = await trx
        .selectFrom("notifications")
        .select(["id", "message", "link"])
        .where("user_id", "=", userId)
        .where("kind", "in", notificationKindsOf(kind))
        .where("mailed_at", "is", null)
        .where("read_at", "is", null)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .forUpdate()
        .execute();
      if (items.length === 0) return false;
      const user = await trx
        .selectFrom("users")
        .select(["name", "email"])
        .where("id", "=", userId)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
      const content = notificationsMail({
        siteName: site,
        name: user?.name ?? "",
        kindLabel: EMAIL_KIND_INFO[kind].label,
        items: items.slice(0, MAIL_ITEMS).map((n) => ({
          message: n.message,
          url: n.link ? `${deps.publicUrl}${n.link}` : "",
        })),
        more: Math.max(0, items.length - MAIL_ITEMS),
        allUrl: `${deps.publicUrl}/user/notifications`,
      });
      const queued = user
        ? await mail.sendToMember({ ...content, to: user.email }, { userId, kind }, trx)
        : false;
      await trx
        .updateTable("notifications")
        .set({ mailed_at: at })
        .where(
          "id",
          "in",
          items.map((n) => n.id),
        )
        .execute();
      if (!queued) return false;
      await trx
        .insertInto("notification_mail_log")
        .values({ user_id: userId, kind, last_sent_at: at })
        .onConflict((oc) =>
          oc
            .columns(["user_id", "kind"])
            .doUpdateSet({ last_sent_at: sql<Date>`excluded.last_sent_at` }),
        )
        .execute();
      return true;
    });
  }
}
