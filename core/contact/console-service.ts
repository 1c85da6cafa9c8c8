import { recordAudit } from "../audit/audit-trail.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { requireContentRole } from "../console/content-policy.ts";
import { lastPage } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import { contactReplyMail } from "../mail/templates.ts";
import * as repo from "./console-repository.ts";
import type {
  ContactMessageIdInput,
  ContactReplyInput,
  MessageStatus,
  MessagesQueryInput,
} from "./console-schema.ts";

/** Messages a page of the queue shows. */
export const MESSAGES_PER_PAGE = 20;

const MISSING = "That message does not exist.";

export function presentContactMessage(row: repo.MessageRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    mobile: row.mobile,
    website: row.website,
    category: row.category,
    subject: row.subject,
    message: row.message,
    user_id: row.user_id,
    status: row.status,
    resolved_at: row.resolved_at ? row.resolved_at.toISOString() : null,
    item_link: row.item_link,
    replies: Number(row.replies),
    created_at: row.created_at.toISOString(),
  };
}

export type ContactMessageItem = ReturnType<typeof presentContactMessage>;

function presentReply(row: repo.ReplyRow) {
  return {
    id: row.id,
    author_name: row.author_name,
    body: row.body,
    created_at: row.created_at.toISOString(),
  };
}

export type ContactMessageDetail = ContactMessageItem & {
  history: ReturnType<typeof presentReply>[];
};

/**
 * The Contact Us messages as a queue (record 0033): filtered by category and status, each one
 * opened with its replies, resolved or reopened, and answered by mail (queued in the transaction
 * that records the reply, sent by the mail job). Every action has its audit entry.
 */
export function createContactConsoleService(
  deps: Deps,
  settings: { get(): Promise<{ websiteName: string }> },
) {
  const { db, mail, now } = deps;

  async function detail(id: number): Promise<ContactMessageDetail> {
    const [row, replies] = await Promise.all([repo.findMessage(db, id), repo.findReplies(db, id)]);
    if (!row) throw new NotFoundError(MISSING);
    return { ...presentContactMessage(row), history: replies.map(presentReply) };
  }

  async function setStatus(
    user: CurrentUser | null,
    { id }: ContactMessageIdInput,
    status: MessageStatus,
  ) {
    const actor = requireContentRole(user, "update");
    await db.transaction().execute(async (tx) => {
      const before = await repo.lockMessage(tx, id);
      if (!before) throw new NotFoundError(MISSING);
      if (before.status === status) return;
      await repo.setMessageStatus(tx, id, status, status === "resolved" ? now() : null);
      await recordAudit(tx, actor, {
        action: status === "resolved" ? "contact.resolve" : "contact.reopen",
        itemType: "contact",
        itemId: id,
        before: { status: before.status },
        after: { status },
      });
    });
    return {
      message: status === "resolved" ? "The message is resolved." : "The message is open again.",
      contact_message: await detail(id),
    };
  }

  return {
    async list(user: CurrentUser | null, query: MessagesQueryInput) {
      requireContentRole(user, "read");
      const { rows, total } = await repo.findMessagesPage(
        db,
        { category: query.category, status: query.status },
        (query.page - 1) * MESSAGES_PER_PAGE,
        MESSAGES_PER_PAGE,
      );
      return {
        items: rows.map(presentContactMessage),
        total,
        page: query.page,
        lastPage: lastPage(total, MESSAGES_PER_PAGE),
        perPage: MESSAGES_PER_PAGE,
      };
    },

    async view(user: CurrentUser | null, { id }: ContactMessageIdInput) {
      requireContentRole(user, "read");
      return detail(id);
    },

    resolve: (user: CurrentUser | null, input: ContactMessageIdInput) =>
      setStatus(user, input, "resolved"),

    reopen: (user: CurrentUser | null, input: ContactMessageIdInput) =>
      setStatus(user, input, "open"),

    /** Mails the reply to the sender, keeps it with the message, and resolves it when asked. */
    async reply(user: CurrentUser | null, input: ContactReplyInput) {
      const actor = requireContentRole(user, "update");
      const siteName = (await settings.get()).websiteName;
      const to = await db.transaction().execute(async (tx) => {
        const message = await repo.lockMessage(tx, input.id);
        if (!message) throw new NotFoundError(MISSING);
        const replyId = await repo.insertReply(tx, {
          message_id: message.id,
          author_id: actor.id,
          author_name: actor.name,
          body: input.body,
        });
        const resolves = input.resolve && message.status !== "resolved";
        if (resolves) await repo.setMessageStatus(tx, message.id, "resolved", now());
        await mail.send(
          {
            to: message.email,
            ...contactReplyMail({
              siteName,
              name: message.name,
              subject: message.subject,
              reply: input.body,
              original: message.message,
              sentAt: message.created_at,
            }),
          },
          tx,
        );
        await recordAudit(tx, actor, {
          action: "contact.reply",
          itemType: "contact",
          itemId: message.id,
          after: {
            reply_id: replyId,
            to: message.email,
            ...(resolves ? { status: "resolved" } : {}),
          },
        });
        return message.email;
      });
      return {
        message: `Your reply to ${to} is on its way.`,
        contact_message: await detail(input.id),
      };
    },
  };
}

export type ContactConsoleService = ReturnType<typeof createContactConsoleService>;
