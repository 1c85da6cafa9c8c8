import { recordAudit } from "../../audit/audit-trail.ts";
import { requireRole } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { lastPage } from "../../constants.ts";
import type { Deps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { CONSOLE_PAGE_SIZE } from "../../list-query.ts";
import { sendMailJob } from "../queue.ts";
import {
  presentDailyCount,
  presentQueue,
  presentUndeliverable,
  type UndeliverableItem,
  type UndeliverablePage,
} from "./presenter.ts";
import * as repo from "./repository.ts";
import {
  MAIL_CONSOLE_MESSAGES,
  type UndeliverableClearInput,
  type UndeliverableQueryInput,
} from "./schema.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How many days of counts the Mail page shows, today included. */
export const MAIL_DAYS = 30;

/**
 * The console's Mail page (administrators, as the site's settings): the mail queue now, mail sent,
 * failed and suppressed per day, and the addresses mail is not sent to, each of which an
 * administrator may clear (audited) so that mail goes to it again.
 */
export function createMailConsoleService({ db, jobs, now }: Deps) {
  return {
    async summary(user: CurrentUser | null) {
      requireRole(user, "admin");
      const at = now();
      const lastDay = at.toISOString().slice(0, 10);
      const firstDay = new Date(at.getTime() - (MAIL_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
      const [states, daily, undeliverableTotal] = await Promise.all([
        jobs.countByState(sendMailJob),
        repo.findDailyCounts(db, firstDay, lastDay),
        repo.countUndeliverable(db),
      ]);
      return {
        queue: presentQueue(states),
        daily: daily.map(presentDailyCount),
        undeliverable_total: undeliverableTotal,
      };
    },

    /** One page of the undeliverable addresses, the latest failure first. */
    async undeliverable(
      user: CurrentUser | null,
      { page }: UndeliverableQueryInput,
    ): Promise<UndeliverablePage> {
      requireRole(user, "admin");
      const [total, rows] = await Promise.all([
        repo.countUndeliverable(db),
        repo.findUndeliverable(db, {
          limit: CONSOLE_PAGE_SIZE,
          offset: (page - 1) * CONSOLE_PAGE_SIZE,
        }),
      ]);
      return {
        addresses: rows.map(presentUndeliverable),
        total,
        perPage: CONSOLE_PAGE_SIZE,
        currentPage: page,
        lastPage: lastPage(total, CONSOLE_PAGE_SIZE),
      };
    },

    /** One listed address (the page's question before a clear), or null when it is not listed. */
    async listedAddress(
      user: CurrentUser | null,
      { address }: UndeliverableClearInput,
    ): Promise<UndeliverableItem | null> {
      requireRole(user, "admin");
      const row = await repo.findUndeliverableAddress(db, address);
      return row ? presentUndeliverable(row) : null;
    },

    /** Takes an address off the list, so that mail goes to it again; the audit log keeps the row. */
    async clear(user: CurrentUser | null, { address }: UndeliverableClearInput) {
      const actor = requireRole(user, "admin");
      await db.transaction().execute(async (tx) => {
        const row = await repo.deleteUndeliverable(tx, address);
        if (!row) throw new NotFoundError(MAIL_CONSOLE_MESSAGES.notListed(address));
        await recordAudit(tx, actor, {
          action: "mail.undeliverable_clear",
          itemType: "undeliverable_address",
          itemId: row.address,
          before: {
            address: row.address,
            reason: row.reason,
            failed_at: row.failed_at.toISOString(),
          },
          after: null,
        });
      });
      return { message: MAIL_CONSOLE_MESSAGES.cleared(address), address };
    },
  };
}

export type MailConsoleService = ReturnType<typeof createMailConsoleService>;
