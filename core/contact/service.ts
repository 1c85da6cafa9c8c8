import type { CurrentUser } from "../auth/sessions.ts";
import { CONTACT_MESSAGES } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { findItemLink } from "./item-link.ts";
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

/**
 * Contact Us: every message is stored (with the item of this site it links to, for the console's
 * messages queue) and, in the same transaction, queued to be mailed to the owner.
 */
export function createContactService({ db, config, mail }: Deps) {
  return {
    async submit(message: ContactMessage, sender: CurrentUser | null, siteName: string) {
      const stored = await db.transaction().execute(async (tx) => {
        const row = await repo.insertContactMessage(tx, {
          ...message,
          user_id: sender?.id ?? null,
          item_link: findItemLink(
            [message.subject, message.message, message.website].join("\n"),
            config.publicUrl,
          ),
        });
        await mail.send(
          contactMail(message, { id: row.id, siteName, to: ownerInbox(config.mailFrom) }),
          tx,
        );
        return row;
      });
      return { id: stored.id, message: CONTACT_MESSAGES.success };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
