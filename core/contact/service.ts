import type { CurrentUser } from "../auth/sessions.ts";
import { CONTACT_MESSAGES } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { contactMail } from "./presenter.ts";
import * as repo from "./repository.ts";
import type { ContactMessage } from "./schema.ts";

/**
 * The site owner's inbox: the address of MAIL_FROM. The site's mail is sent from the owner's domain,
 * so that mailbox is one the owner reads; no separate setting is needed
 * (docs/decisions/0012-discovery-and-public-pages.md).
 */
export function ownerInbox(mailFrom: string): string {
  const bracketed = /<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom);
  return (bracketed ? bracketed[1]! : mailFrom).trim();
}

/** Contact Us: every message is stored, then mailed to the owner. */
export function createContactService({ db, config, mailer, log }: Deps) {
  return {
    async submit(message: ContactMessage, sender: CurrentUser | null, siteName: string) {
      const stored = await repo.insertContactMessage(db, {
        ...message,
        user_id: sender?.id ?? null,
      });
      // The message is safe in the database; a slow or failing mail server must not hold up or
      // fail the visitor's request, so the owner's copy is sent in the background.
      const mail = contactMail(message, {
        id: stored.id,
        siteName,
        to: ownerInbox(config.mailFrom),
      });
      mailer.send(mail).catch((error: unknown) => {
        log.error({
          msg: "contact message mail failed",
          contactMessageId: stored.id,
          error: String(error),
        });
      });
      return { id: stored.id, message: CONTACT_MESSAGES.success };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
