import type { JobState } from "../../jobs/queue.ts";
import type { DailyMailCount, UndeliverableRow } from "./repository.ts";

/** The Mail page's rows as its JSON calls answer them (./responses.ts). */

/** The mail queue now, in the words the page uses for pg-boss's states. */
export function presentQueue(states: Partial<Record<JobState, number>>) {
  return {
    waiting: states.created ?? 0,
    retrying: states.retry ?? 0,
    sending: states.active ?? 0,
    failed: states.failed ?? 0,
  };
}

export type MailQueueFigures = ReturnType<typeof presentQueue>;

export function presentDailyCount(row: DailyMailCount) {
  return { day: row.day, sent: row.sent, failed: row.failed, suppressed: row.suppressed };
}

export function presentUndeliverable(row: UndeliverableRow) {
  return { address: row.address, reason: row.reason, failed_at: row.failed_at.toISOString() };
}

export type UndeliverableItem = ReturnType<typeof presentUndeliverable>;

/** One page of the undeliverable list, as the page and `GET /api/admin/mail/undeliverable` show it. */
export interface UndeliverablePage {
  addresses: UndeliverableItem[];
  total: number;
  perPage: number;
  currentPage: number;
  lastPage: number;
}

export function presentUndeliverablePage(page: UndeliverablePage) {
  return {
    addresses: page.addresses,
    pagination: {
      total: page.total,
      per_page: page.perPage,
      current_page: page.currentPage,
      last_page: page.lastPage,
    },
  };
}
