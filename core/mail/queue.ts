import type { DbOrTx } from "../../db/index.ts";
import { defineJob } from "../jobs/job.ts";
import type { JobQueue } from "../jobs/queue.ts";
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

/** How services send mail: never inside the request, always through the job queue. */
export interface MailQueue {
  /**
   * Queues `message`. Pass the transaction of the write that causes the mail, so the mail is sent
   * if and only if that write commits.
   */
  send(message: MailMessage, tx?: DbOrTx): Promise<void>;
}

export function createMailQueue(jobs: JobQueue): MailQueue {
  return {
    send: (message, tx) => jobs.send(sendMailJob, message, tx),
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
