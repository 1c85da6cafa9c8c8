import { z } from "zod";
import { ListPagination, TRUE, count, isoDateTime } from "../../responses.ts";

/** The answers of `/api/admin/mail/*` (server/api/admin-mail.ts), built by ./presenter.ts. */

const MailQueue = z
  .strictObject({
    waiting: count.describe("mails not tried yet"),
    retrying: count.describe("mails waiting to be tried again after a failure"),
    sending: count.describe("mails being sent now"),
    failed: count.describe("mails given up and not yet deleted by the queue"),
  })
  .describe("the mail.send jobs, by state");

const DailyMailCount = z.strictObject({
  day: z.string().describe("YYYY-MM-DD (UTC)"),
  sent: count,
  failed: count,
  suppressed: count.describe("not sent because the address is undeliverable"),
});

export const MailSummaryResponse = z.strictObject({
  status: TRUE,
  queue: MailQueue,
  daily: z.array(DailyMailCount).describe("the last 30 days, newest first, a quiet day as zeros"),
  undeliverable_total: count,
});

const UndeliverableAddress = z.strictObject({
  address: z.string(),
  reason: z.string().describe("the receiving server's answer, or why the mail was given up"),
  failed_at: isoDateTime,
});

export const UndeliverableListResponse = z.strictObject({
  status: TRUE,
  addresses: z.array(UndeliverableAddress),
  pagination: ListPagination,
});

export const UndeliverableClearedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  address: z.string(),
});
