import fs from "node:fs/promises";
import path from "node:path";
import type nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import type { Config, DkimConfig } from "../../config/env.ts";
import { onFirstUse } from "../on-first-use.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where replies go, when not to the sender (contact messages: the visitor who wrote). */
  replyTo?: string;
  /** Extra header lines (List-Unsubscribe of member mails), passed to nodemailer as they are. */
  headers?: Record<string, string>;
}

/** What a transport says of a message it took. */
export interface SentMail {
  /**
   * The unique left part of the message's Message-ID header (without `<`, `@` and the domain): in
   * log lines it names the mail, where the mail server's own log can find it, without an address.
   */
  messageId: string;
}

export interface Mailer {
  /** Resolves with the message's id when the transport tells it (a test's mailer may not). */
  send(message: MailMessage): Promise<SentMail | void>;
}

/** The left part of a Message-ID (`<left@domain>`), which looks like an address in a log line. */
export function messageIdOf(header: string | undefined): string {
  return (header ?? "").replace(/^</, "").replace(/@[^@]*$/, "");
}

type Nodemailer = typeof nodemailer;
/** nodemailer, imported when the first mail is sent rather than at every start. */
const loadNodemailer = onFirstUse(() => import("nodemailer").then((module) => module.default));

/** A transport made on first use from `make`, then kept. */
function lazyTransport(make: (nodemailer: Nodemailer) => Transporter): () => Promise<Transporter> {
  return onFirstUse(() => loadNodemailer().then(make));
}

/**
 * The header fields a DKIM signature covers: nodemailer's default list (RFC 6376 section 5.4's)
 * plus List-Unsubscribe-Post, so that no relay can add or change the one-click unsubscribe of a
 * bulk mail (RFC 8058 section 4 asks both List-Unsubscribe fields to be signed).
 */
export const DKIM_SIGNED_HEADERS = [
  "From",
  "Sender",
  "Reply-To",
  "Subject",
  "Date",
  "Message-ID",
  "To",
  "Cc",
  "MIME-Version",
  "Content-Type",
  "Content-Transfer-Encoding",
  "Content-ID",
  "Content-Description",
  "Resent-Date",
  "Resent-From",
  "Resent-Sender",
  "Resent-To",
  "Resent-Cc",
  "Resent-Message-ID",
  "In-Reply-To",
  "References",
  "List-Id",
  "List-Help",
  "List-Unsubscribe",
  "List-Unsubscribe-Post",
  "List-Subscribe",
  "List-Post",
  "List-Owner",
  "List-Archive",
].join(":");

/** nodemailer's `dkim` transport option for DKIM_*: nodemailer signs every message it sends. */
function dkimOption(dkim: DkimConfig | undefined) {
  return dkim ? { dkim: { ...dkim, headerFieldNames: DKIM_SIGNED_HEADERS } } : {};
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise each message is written to
 * DATA_DIR/outbox/ as an .eml file and logged, so a local install can still confirm accounts.
 * With `dkim` every message is DKIM-signed, the outbox's copies too.
 * Services do not call this: they queue mail (./queue.ts), and the mail job calls it.
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: (line: string) => void;
  dkim?: DkimConfig;
}): Mailer {
  const signing = dkimOption(options.dkim);
  if (options.smtpUrl) {
    // Within the mail job's two minutes, so a server that hangs fails the attempt, which is retried.
    const smtpUrl = options.smtpUrl;
    const transport = lazyTransport((nodemailer) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: 20_000,
        greetingTimeout: 20_000,
        socketTimeout: 60_000,
        ...signing,
      }),
    );
    return {
      async send(message) {
        const info = await (await transport()).sendMail({ from: options.from, ...message });
        return { messageId: messageIdOf(info.messageId) };
      },
    };
  }
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, ...signing }),
  );
  return {
    async send(message) {
      const info = await (await transport()).sendMail({ from: options.from, ...message });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(
        options.outboxDir,
        `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.eml`,
      );
      await fs.writeFile(file, info.message as Buffer);
      // No address in the log (docs/decisions/0083-mail-delivery.md): the message id and the file say which mail it is.
      const messageId = messageIdOf(info.messageId);
      options.log(`mail ${messageId} written to ${file}`);
      return { messageId };
    },
  };
}

/** The mailer the configuration asks for: SMTP_URL's server, or DATA_DIR/outbox/. */
export function mailerFor(config: Config, log: (line: string) => void): Mailer {
  return createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, "outbox"),
    log,
    ...(config.dkim ? { dkim: config.dkim } : {}),
  });
}
