import fs from "node:fs/promises";
import path from "node:path";
import type nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import type { Config } from "../../config/env.ts";
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

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

type Nodemailer = typeof nodemailer;
/** nodemailer, imported when the first mail is sent rather than at every start. */
const loadNodemailer = onFirstUse(() => import("nodemailer").then((module) => module.default));

/** A transport made on first use from `make`, then kept. */
function lazyTransport(make: (nodemailer: Nodemailer) => Transporter): () => Promise<Transporter> {
  return onFirstUse(() => loadNodemailer().then(make));
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise each message is written to
 * DATA_DIR/outbox/ as an .eml file and logged, so a local install can still confirm accounts.
 * Services do not call this: they queue mail (./queue.ts), and the mail job calls it.
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: (line: string) => void;
}): Mailer {
  if (options.smtpUrl) {
    // Within the mail job's two minutes, so a server that hangs fails the attempt, which is retried.
    const smtpUrl = options.smtpUrl;
    const transport = lazyTransport((nodemailer) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: 20_000,
        greetingTimeout: 20_000,
        socketTimeout: 60_000,
      }),
    );
    return {
      async send(message) {
        await (await transport()).sendMail({ from: options.from, ...message });
      },
    };
  }
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true }),
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
      options.log(`mail to ${message.to} ("${message.subject}") written to ${file}`);
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
  });
}
