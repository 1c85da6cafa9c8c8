import { textToHtml } from "../content/sanitize.ts";
import type { MailMessage } from "../mail/mailer.ts";
import type { ContactMessage } from "./schema.ts";

const FIELDS: [keyof ContactMessage, string][] = [
  ["name", "Name"],
  ["email", "Email"],
  ["mobile", "Mobile"],
  ["website", "Website"],
  ["category", "Category"],
  ["subject", "Subject"],
  ["message", "Message"],
];

/** The site owner's copy of a contact message; replying answers the sender. */
export function contactMail(
  message: ContactMessage,
  meta: { id: number; siteName: string; to: string },
): MailMessage {
  const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ");
  const rows = FIELDS.filter(([field]) => message[field] !== "");
  return {
    to: meta.to,
    replyTo: message.email,
    subject: oneLine(
      `[${meta.siteName} contact #${meta.id}] ${message.category}: ${message.subject}`,
    ),
    text: [
      `A message from the Contact Us form of ${meta.siteName}:`,
      "",
      ...rows.map(([field, label]) => `${label}: ${message[field]}`),
    ].join("\n"),
    html: [
      textToHtml(`A message from the Contact Us form of ${meta.siteName}:`),
      "<table>",
      ...rows.map(
        ([field, label]) =>
          `<tr><th align="left" valign="top">${label}</th><td>${textToHtml(message[field])}</td></tr>`,
      ),
      "</table>",
    ].join("\n"),
  };
}

/** `POST /api/contact_us` on success (HTTP 200). */
export function presentContactSubmitted(message: string) {
  return { status: "true", message };
}
