import type { Db, DbOrTx } from "../../db/index.ts";
import { defineJob, shortestRetryDelaySeconds } from "../jobs/job.ts";
import type { JobAttempt, JobQueue } from "../jobs/queue.ts";
import { EMAIL_KIND_INFO, type EmailKind } from "../member/notifications/email-kinds.ts";
import { wantsMail } from "../member/notifications/preferences.ts";
import {
  createUnsubscribeKeys,
  type UnsubscribeKeys,
} from "../member/notifications/unsubscribe.ts";
import { countMailOutcome } from "../metrics/counts.ts";
import { countMail, findUndeliverable, markUndeliverable } from "./delivery-repository.ts";
import type { MailMessage, Mailer, SentMail } from "./mailer.ts";

/** How long a mail the receiving side refuses for now (4xx, or no answer) is retried. */
export const MAIL_RETRY_HOURS = 24;

/**
 * One mail to send. Retries start after 2–4 s and double up to an hour apart. A mail refused for
 * good (a 5xx answer to its recipient or its message) is not retried; any other failure is given
 * up at the first one after which no retry could start within 24 hours of the job's creation
 * (deliverMail), so 23 to 24 hours after it was queued. 34 retries take at least 24.1 hours, so
 * that cutoff, not the queue's limit, is what ends a mail.
 * A sent mail's row is deleted after an hour, as it may carry a single-use link.
 */
export const sendMailJob = defineJob<MailMessage>({
  name: "mail.send",
  retryLimit: 34,
  retryDelaySeconds: 2,
  retryDelayMaxSeconds: 3600,
  timeoutSeconds: 120,
  keepSeconds: 3600,
  pollSeconds: 1,
});

/** A member mail: `to` may be left out, and is then the member's own address. */
export type MemberMailMessage = Omit<MailMessage, "to" | "headers"> & { to?: string };

/** How services send mail: never inside the request, always through the job queue. */
export interface MailQueue {
  /**
   * Queues `message`. Pass the transaction of the write that causes the mail, so the mail is sent
   * if and only if that write commits. A mail to an undeliverable address is not queued (and is
   * counted as suppressed) when the queue has the database (MemberMailOptions).
   */
  send(message: MailMessage, tx?: DbOrTx): Promise<void>;
  /**
   * Queues a mail to a member about something they may switch off (every mail but account mails):
   * skipped (false) when their preference for `kind` is off, the account is deleted or its address
   * is undeliverable; otherwise
   * sent with RFC 8058 one-click unsubscribe headers and a visible unsubscribe link (true).
   */
  sendToMember(
    message: MemberMailMessage,
    target: { userId: number; kind: EmailKind },
    tx?: DbOrTx,
  ): Promise<boolean>;
}

export interface MemberMailOptions {
  db: Db;
  /** PUBLIC_URL, without a trailing slash: where the unsubscribe link points. */
  publicUrl: string;
  keys?: UnsubscribeKeys;
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** The message with its unsubscribe headers and a visible link in both bodies. */
export function withUnsubscribe(
  message: MailMessage,
  links: { unsubscribe: string; settings: string; kindLabel: string },
): MailMessage {
  const { unsubscribe, settings, kindLabel } = links;
  const text =
    `${message.text.replace(/\s*$/, "")}\n\n` +
    `You receive this mail because "${kindLabel}" is on in your email settings.\n` +
    `Unsubscribe from these mails with one click: ${unsubscribe}\n` +
    `Choose which mails you receive: ${settings}\n`;
  const footer =
    `<p style="margin:16px auto 24px;max-width:560px;font-family:Arial,Helvetica,sans-serif;font-size:13px;line-height:1.5;color:#4a5063;text-align:center">` +
    `You receive this mail because “${escapeHtml(kindLabel)}” is on in your email settings.<br>` +
    `<a href="${escapeHtml(unsubscribe)}" style="color:#353f66">Unsubscribe from these mails</a> · ` +
    `<a href="${escapeHtml(settings)}" style="color:#353f66">Email settings</a></p>`;
  const html = message.html.includes("</body>")
    ? message.html.replace(/<\/body>(?![\s\S]*<\/body>)/, `${footer}\n</body>`)
    : `${message.html}\n${footer}`;
  return {
    ...message,
    text,
    html,
    headers: {
      ...message.headers,
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

export function createMailQueue(jobs: JobQueue, member?: MemberMailOptions): MailQueue {
  const keys = member ? (member.keys ?? createUnsubscribeKeys(member.db)) : undefined;

  /**
   * Whether `to` is marked undeliverable, counting the mail as suppressed if so (in `db`, the
   * queueing write's transaction). The mail job checks again when it sends.
   */
  async function suppressed(db: DbOrTx, to: string): Promise<boolean> {
    if (!(await findUndeliverable(db, to))) return false;
    await countMail(db, "suppressed", new Date());
    countMailOutcome("suppressed");
    return true;
  }

  return {
    async send(message, tx) {
      if (member && (await suppressed(tx ?? member.db, message.to))) return;
      await jobs.send(sendMailJob, message, tx);
    },

    async sendToMember(message, { userId, kind }, tx) {
      if (!member || !keys) throw new Error("this mail queue was made without member mail options");
      const db = tx ?? member.db;
      if (!(await wantsMail(db, userId, kind))) return false;
      let to = message.to;
      if (!to) {
        const user = await db
          .selectFrom("users")
          .select("email")
          .where("id", "=", userId)
          .where("deleted_at", "is", null)
          .executeTakeFirst();
        if (!user) return false;
        to = user.email;
      }
      if (await suppressed(db, to)) return false;
      const token = await keys.sign(userId, kind, tx);
      const full = withUnsubscribe(
        { ...message, to },
        {
          unsubscribe: `${member.publicUrl}/unsubscribe?token=${encodeURIComponent(token)}`,
          settings: `${member.publicUrl}/user/settings/email`,
          kindLabel: EMAIL_KIND_INFO[kind].label,
        },
      );
      await jobs.send(sendMailJob, full, tx);
      return true;
    },
  };
}

/** Why a mail was not delivered: the receiving side's answer, and whether it is final. */
export interface DeliveryFailure {
  /** A 5xx answer to RCPT TO or DATA: this address will not take this mail, however often sent. */
  permanent: boolean;
  /** The server's answer ("550 5.1.1 No such user"), or what went wrong when there was none. */
  answer: string;
}

/** What nodemailer's SMTP errors carry (nodemailer's smtp-connection `_formatError`). */
interface SmtpError {
  message?: string;
  code?: string;
  response?: string;
  responseCode?: number;
  command?: string;
}

/**
 * Sorts a failed send: a 5xx answer to the recipient (RCPT TO) or to the message (DATA) is
 * permanent. Anything else is temporary: a 4xx answer, a server that cannot be reached or does not
 * answer in time, and a 5xx to the greeting, the sign-in or the sender (MAIL FROM), which are about
 * this site's mail setup, not the recipient.
 */
export function classifyDeliveryFailure(error: unknown): DeliveryFailure {
  const smtp = (typeof error === "object" && error !== null ? error : {}) as SmtpError;
  const answer = (smtp.response ?? smtp.message ?? String(error)).trim();
  const permanent =
    typeof smtp.responseCode === "number" &&
    smtp.responseCode >= 500 &&
    smtp.responseCode < 600 &&
    (smtp.command === "RCPT TO" || smtp.command === "DATA");
  return { permanent, answer: answer || (smtp.code ?? "unknown error") };
}

/** `text` with every mail address replaced, for log lines (docs/decisions/0083-mail-delivery.md: no address in logs). */
function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+/g, "(address)");
}

export interface DeliverMailDeps {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  log: { info(msg: string): void; warn(msg: string): void };
}

/**
 * The job's work: hand the message to SMTP (or the outbox folder), unless its address is marked
 * undeliverable (then it is counted as suppressed). A permanent refusal marks the address
 * undeliverable and ends the job at once; a temporary one throws, so the job is retried, until no
 * retry could start within MAIL_RETRY_HOURS of the job's creation: then it is handled as permanent.
 * Each outcome is counted per day. Log lines name the mail by its subject, never its address.
 */
export function deliverMail({ db, mailer, now, log }: DeliverMailDeps) {
  return async (
    message: MailMessage,
    { attempt, createdOn }: Pick<JobAttempt, "attempt" | "createdOn">,
  ) => {
    const what = `mail "${withoutAddresses(message.subject)}"`;
    if (await findUndeliverable(db, message.to)) {
      await countMail(db, "suppressed", now());
      countMailOutcome("suppressed");
      log.info(`${what} not sent: its address is marked undeliverable`);
      return;
    }
    let sent: SentMail | void;
    try {
      sent = await mailer.send(message);
    } catch (error) {
      const failure = classifyDeliveryFailure(error);
      const at = now();
      const deadline = createdOn.getTime() + MAIL_RETRY_HOURS * 3600_000;
      const nextRetry = at.getTime() + shortestRetryDelaySeconds(sendMailJob, attempt) * 1000;
      const givenUp =
        !failure.permanent && (nextRetry >= deadline || attempt > sendMailJob.retryLimit);
      if (!failure.permanent && !givenUp) {
        log.warn(
          `${what} not sent, attempt ${attempt}, will be retried: ${withoutAddresses(failure.answer)}`,
        );
        throw error;
      }
      const reason = failure.permanent
        ? failure.answer
        : `Given up after ${MAIL_RETRY_HOURS} hours of temporary failures; last answer: ${failure.answer}`;
      await db.transaction().execute(async (trx) => {
        await markUndeliverable(trx, { address: message.to, reason, failedAt: at });
        await countMail(trx, "failed", at);
      });
      countMailOutcome("failed");
      log.warn(
        `${what} not delivered after ${attempt} attempt${attempt === 1 ? "" : "s"}, its address is now marked undeliverable: ${withoutAddresses(reason)}`,
      );
      return;
    }
    // Named by its message id (the mail server's log has it too), never by its address.
    log.info(
      `mail sent, message id ${sent?.messageId || "(not given)"}: "${withoutAddresses(message.subject)}"`,
    );
    countMailOutcome("sent");
    // The mail is gone: a failure to count it must not send it again.
    await countMail(db, "sent", now()).catch((error: unknown) =>
      log.warn(`${what} sent, but not counted: ${String(error)}`),
    );
  };
}
