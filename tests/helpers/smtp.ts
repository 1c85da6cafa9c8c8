import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { createMailer, type Mailer } from "../../core/mail/mailer.ts";

/** One message as the SMTP server received it, decoded enough to read and follow its links. */
export interface CapturedMail {
  from: string;
  /** Envelope recipients, lower-cased. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link of the text and HTML parts, in order, without duplicates. */
  links: string[];
  raw: string;
}

export interface SmtpCapture {
  /** smtp://127.0.0.1:<port>, for createMailer({ smtpUrl }) or SMTP_URL. */
  url: string;
  /** The port it listens on: a server started again on it is the same mail server to the site. */
  port: number;
  /** Messages refused so far (see `refuseFirst`). */
  refused: number;
  /**
   * From now on answers RCPT TO for `address` with `answer` (e.g. 550 "No such user", or 451
   * "Try again later"), as a receiving server refusing that mailbox does; with `at: "DATA"` the
   * recipient is taken and the message to it refused instead (a 554 "spam" answer). null: accept
   * it again.
   */
  answerRecipient(
    address: string,
    answer: { code: number; message: string } | null,
    at?: "RCPT TO" | "DATA",
  ): void;
  /** RCPT TO commands for `address` so far, answered or refused: one per delivery attempt. */
  recipientAttempts(address: string): number;
  /** Every message received so far, oldest first. */
  messages: CapturedMail[];
  /**
   * The next message to `to` (optionally with a subject matching `subject`) that no earlier call
   * returned: waits for it up to `timeoutMs`.
   */
  waitForMessage(
    to: string,
    options?: { subject?: RegExp; timeoutMs?: number },
  ): Promise<CapturedMail>;
  close(): Promise<void>;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const separator = /\r?\n\r?\n/.exec(raw);
  const headerText = separator ? raw.slice(0, separator.index) : raw;
  const body = separator ? raw.slice(separator.index + separator[0].length) : "";
  const headers = new Map<string, string>();
  for (const line of headerText.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  const input = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < input.length; i++) {
    const hex = input.slice(i + 1, i + 3);
    if (input[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(input[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(part.body).toString("utf8");
  if (encoding === "base64")
    return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  return part.body;
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=) in a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_match, _charset: string, kind: string, data: string) =>
        kind.toUpperCase() === "B"
          ? Buffer.from(data, "base64").toString("utf8")
          : decodeQuotedPrintable(data.replace(/_/g, " ")).toString("utf8"),
    );
}

/** The text/plain and text/html leaves of a (possibly multipart) message. */
function collectLeaves(part: Part, into: { text: string[]; html: string[] }) {
  const type = part.headers.get("content-type") ?? "text/plain";
  if (/^multipart\//i.test(type)) {
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (!boundary) return;
    const sections = part.body.split(`--${boundary}`);
    // sections[0] is the preamble; the last one starts with "--" (the closing delimiter).
    for (const section of sections.slice(1)) {
      if (section.startsWith("--")) break;
      collectLeaves(splitPart(section.replace(/^\r?\n/, "")), into);
    }
    return;
  }
  if (/^text\/html/i.test(type)) into.html.push(decodeBody(part));
  else if (/^text\/plain/i.test(type)) into.text.push(decodeBody(part));
}

function linksIn(text: string, html: string): string[] {
  const found = [
    ...(text.match(/https?:\/\/[^\s"'<>]+/g) ?? []),
    ...[...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&")),
  ].filter((link) => /^https?:\/\//.test(link));
  return [...new Set(found)];
}

export function parseMail(raw: string, envelopeTo: string[] = []): CapturedMail {
  const message = splitPart(raw);
  const leaves = { text: [] as string[], html: [] as string[] };
  collectLeaves(message, leaves);
  const text = leaves.text.join("\n");
  const html = leaves.html.join("\n");
  return {
    from: decodeHeader(message.headers.get("from") ?? ""),
    to: envelopeTo.map((address) => address.toLowerCase()),
    subject: decodeHeader(message.headers.get("subject") ?? ""),
    text,
    html,
    links: linksIn(text, html),
    raw,
  };
}

/**
 * A real SMTP server on loopback that keeps every message in memory, for tests that check the
 * mail the site sends (integration tests in-process; browser tests from a global setup).
 * `port` starts it on a given port (0: any free one); `refuseFirst` makes it answer the first n
 * messages with a temporary failure (451), as a mail server that is overloaded does;
 * `answerRecipient` makes it refuse one mailbox.
 */
export async function startSmtpCapture(
  options: { port?: number; refuseFirst?: number } = {},
): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const taken = new Set<CapturedMail>();
  const waiters = new Set<() => void>();
  let refused = 0;
  const recipientAnswers = new Map<
    string,
    { code: number; message: string; at: "RCPT TO" | "DATA" }
  >();
  const refusal = (answer: { code: number; message: string }) =>
    Object.assign(new Error(answer.message), { responseCode: answer.code });
  const recipientCounts = new Map<string, number>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const mailbox = address.address.toLowerCase();
      recipientCounts.set(mailbox, (recipientCounts.get(mailbox) ?? 0) + 1);
      const answer = recipientAnswers.get(mailbox);
      if (!answer || answer.at !== "RCPT TO") return callback();
      callback(refusal(answer));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const dataAnswer = session.envelope.rcptTo
          .map((r) => recipientAnswers.get(r.address.toLowerCase()))
          .find((answer) => answer?.at === "DATA");
        if (dataAnswer) {
          callback(refusal(dataAnswer));
          return;
        }
        if (refused < (options.refuseFirst ?? 0)) {
          refused += 1;
          callback(Object.assign(new Error("Too busy, try again later"), { responseCode: 451 }));
          return;
        }
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        messages.push(parseMail(Buffer.concat(chunks).toString("utf8"), recipients));
        for (const wake of [...waiters]) wake();
        callback();
      });
    },
  });
  // A failed listen (the port still taken) rejects; later errors are a client's dropped connection.
  await new Promise<void>((resolve, reject) => {
    server.on("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.server.address() as AddressInfo;

  function findUntaken(to: string, subject?: RegExp) {
    const address = to.toLowerCase();
    return messages.find(
      (m) => !taken.has(m) && m.to.includes(address) && (!subject || subject.test(m.subject)),
    );
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    get refused() {
      return refused;
    },
    answerRecipient(address, answer, at = "RCPT TO") {
      if (answer) recipientAnswers.set(address.toLowerCase(), { ...answer, at });
      else recipientAnswers.delete(address.toLowerCase());
    },
    recipientAttempts: (address) => recipientCounts.get(address.toLowerCase()) ?? 0,
    messages,
    waitForMessage(to, options = {}) {
      const { subject, timeoutMs = 10_000 } = options;
      return new Promise<CapturedMail>((resolve, reject) => {
        const check = () => {
          const found = findUntaken(to, subject);
          if (!found) return false;
          taken.add(found);
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(
            new Error(
              `no mail to ${to}${subject ? ` with subject ${subject}` : ""} within ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        if (!check()) waiters.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The site's mailer sending over SMTP to `smtp` only (no outbox to fall back on). */
export function smtpMailer(
  smtp: SmtpCapture,
  from = "Chalkboard Deals <no-reply@chalkboard.test>",
): Mailer {
  return createMailer({ smtpUrl: smtp.url, from, outboxDir: "/nonexistent", log: () => {} });
}
