import { requireUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { lastPage } from "../../constants.ts";
import type { Deps } from "../../deps.ts";
import { NotFoundError, RejectedError } from "../../errors.ts";
import { findDigestSchedule, type DigestSchedule } from "../../settings/digest-schedule.ts";
import { weeklyDigestDescription } from "../digest/schedule.ts";
import { EMAIL_KIND_INFO, EMAIL_KINDS, type EmailKind } from "./email-kinds.ts";
import { findEmailPreferences, saveEmailPreferences } from "./preferences.ts";
import { createUnsubscribeKeys } from "./unsubscribe.ts";
import { presentNotification } from "./presenter.ts";
import * as repo from "./repository.ts";
import {
  EMAIL_MESSAGES,
  NOTIFICATION_MESSAGES,
  NOTIFICATIONS_PAGE_SIZE,
  type EmailPreferencesSaveInput,
  type MarkReadInput,
} from "./schema.ts";

/**
 * Each mail kind as the settings page and `POST /api/email_preferences` show it. The weekly
 * digest says when it comes: the owner's day and hour (record 0087).
 */
function presentPreferences(chosen: Record<EmailKind, boolean>, digest: DigestSchedule) {
  return EMAIL_KINDS.map((kind) => ({
    kind,
    label: EMAIL_KIND_INFO[kind].label,
    description:
      kind === "weekly_digest"
        ? weeklyDigestDescription(digest)
        : EMAIL_KIND_INFO[kind].description,
    enabled: chosen[kind],
    default_enabled: EMAIL_KIND_INFO[kind].defaultOn,
  }));
}

/**
 * A user's in-site notifications: moderators' decisions on their reports and posts (and, later,
 * other kinds). Each user sees and marks only their own.
 */
export function createNotificationsService({ db, now }: Deps) {
  const keys = createUnsubscribeKeys(db);

  /** The member and kind a token names; a malformed or tampered token is refused. */
  async function target(token: string) {
    const found = await keys.verify(token);
    if (!found) throw new RejectedError(EMAIL_MESSAGES.badToken);
    const user = await db
      .selectFrom("users")
      .select(["id", "email"])
      .where("id", "=", found.userId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!user) throw new RejectedError(EMAIL_MESSAGES.noAccount);
    return found;
  }

  return {
    /** A page of the signed-in user's notifications, newest first, with the unread count. */
    async list(user: CurrentUser | null, page = 1) {
      const me = requireUser(user);
      const perPage = NOTIFICATIONS_PAGE_SIZE;
      const [rows, counts] = await Promise.all([
        repo.findNotifications(db, me.id, (page - 1) * perPage, perPage),
        repo.countNotifications(db, me.id),
      ]);
      return {
        notifications: rows.map(presentNotification),
        unread: counts.unread,
        pagination: {
          total: counts.total,
          per_page: perPage,
          current_page: page,
          last_page: lastPage(counts.total, perPage),
        },
      };
    },

    /** How many of the signed-in user's notifications are unread. */
    async unreadCount(user: CurrentUser | null): Promise<number> {
      return repo.countUnread(db, requireUser(user).id);
    },

    /** Marks one notification read (it must be the user's), or all of them. */
    async markRead(user: CurrentUser | null, input: MarkReadInput) {
      const me = requireUser(user);
      if (input.id !== undefined && !(await repo.ownsNotification(db, me.id, input.id))) {
        throw new NotFoundError(NOTIFICATION_MESSAGES.notFound);
      }
      await repo.markRead(db, me.id, now(), input.id);
      return {
        message:
          input.id === undefined ? NOTIFICATION_MESSAGES.allRead : NOTIFICATION_MESSAGES.oneRead,
        unread: await repo.countUnread(db, me.id),
      };
    },

    /** The signed-in member's mail choices, every kind. */
    async emailPreferences(user: CurrentUser | null) {
      const me = requireUser(user);
      const [chosen, digest] = await Promise.all([
        findEmailPreferences(db, me.id),
        findDigestSchedule(db),
      ]);
      return { kinds: presentPreferences(chosen, digest) };
    },

    /** Saves the kinds given; the others stay as they were. */
    async saveEmailPreferences(user: CurrentUser | null, input: EmailPreferencesSaveInput) {
      const me = requireUser(user);
      const kinds = await db.transaction().execute(async (trx) => {
        await saveEmailPreferences(trx, me.id, input, now());
        return presentPreferences(
          await findEmailPreferences(trx, me.id),
          await findDigestSchedule(trx),
        );
      });
      return { message: EMAIL_MESSAGES.saved, kinds };
    },

    /** What an unsubscribe link would switch off, for its confirmation page (no sign-in). */
    async unsubscribeTarget(token: string) {
      const { userId, kind } = await target(token);
      const chosen = await findEmailPreferences(db, userId);
      return { kind, label: EMAIL_KIND_INFO[kind].label, enabled: chosen[kind] };
    },

    /** One-click unsubscribe (RFC 8058): switches the token's kind off for its member. */
    async unsubscribe(token: string) {
      const { userId, kind } = await target(token);
      await db
        .transaction()
        .execute((trx) => saveEmailPreferences(trx, userId, { [kind]: false }, now()));
      const label = EMAIL_KIND_INFO[kind].label;
      return { kind, label, message: EMAIL_MESSAGES.unsubscribed(label) };
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
