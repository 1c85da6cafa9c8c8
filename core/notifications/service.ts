import { requireUser } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { lastPage } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import { presentNotification } from "./presenter.ts";
import * as repo from "./repository.ts";
import { NOTIFICATION_MESSAGES, NOTIFICATIONS_PAGE_SIZE, type MarkReadInput } from "./schema.ts";

/**
 * A user's in-site notifications: moderators' decisions on their reports and posts (and, later,
 * other kinds). Each user sees and marks only their own.
 */
export function createNotificationsService({ db, now }: Deps) {
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
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
