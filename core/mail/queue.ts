import type { Db, DbOrTx } from "../../db/index.ts";
import { defineJob } from "../jobs/job.ts";
import type { JobQueue } from "../jobs/queue.ts";
import { EMAIL_KIND_INFO, type EmailKind } from "../member/notifications/email-kinds.ts";
import { wantsMail } from "../member/notifications/preferences.ts";
import {
  createUnsubscribeKeys,
  type UnsubscribeKeys,
} from "../member/notifications/unsubscribe.ts";
import type { MailMessage, Mailer } from "./mailer.ts";

/**
 * One mail to send. Retries start after 2–4 s and double up to an hour apart, for about two and a
 * half days: a mail server that is down or refusing loses nothing unless it stays so that long.
 * A sent mail's row is deleted after an hour, as it may carry a single-use link.
 */
export const sendMailJob = defineJob<MailMessage>({
  name: "mail.send",
  retryLimit: 60,
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
   * if and only if that write commits.
   */
  send(message: MailMessage, tx?: DbOrTx): Promise<void>;
  /**
   * Queues a mail to a member about something they may switch off (every mail but account mails):
   * skipped (false) when their preference for `kind` is off or the account is deleted; otherwise
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
  return {
    send: (message, tx) => jobs.send(sendMailJob, message, tx),

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

/** The job's work: hand the message to SMTP (or the outbox folder); a refusal throws and retries. */
export function deliverMail(mailer: Mailer, log: { warn(msg: string): void }) {
  return async (message: MailMessage, { attempt }: { attempt: number }) => {
    try {
      await mailer.send(message);
    } catch (error) {
      log.warn(
        `mail to ${message.to} ("${message.subject}") not sent, attempt ${attempt}: ${String(error)}`,
      );
      throw error;
    }
  };
}
