import { recordAudit, recordSystemAudit, type AuditEntry } from "../audit/audit-trail.ts";
import { requireRole, requireUser } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { lastPage } from "../constants.ts";
import { htmlToText } from "../content/sanitize.ts";
import type { Deps } from "../deps.ts";
import type { JobQueue } from "../jobs/queue.ts";
import { queueAlertMatching } from "../member/alerts/jobs.ts";
import { queueReputationRecompute } from "../people/reputation/job.ts";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import { notify, type NewNotification } from "../member/notifications/notify.ts";
import { queuePushes } from "../member/push/outbox.ts";
import { postPath } from "../posts/paths.ts";
import { recountComments } from "../posts/post-counters.ts";
import { excerpt } from "../seo/text.ts";
import type { CommentStatus, PostStatus, ReportItemType } from "../../db/schema.ts";
import type { DbOrTx } from "../../db/index.ts";
import { canReport } from "./policy.ts";
import { presentHeldPosts, presentReportGroups } from "./presenter.ts";
import * as repo from "./repository.ts";
import { REPORT_MESSAGES, type ModerateInput, type ReportInput } from "./schema.ts";

/** The status each action leaves an item in: restore makes it public again. */
const STATUS_AFTER = { hide: "hidden", restore: "active", remove: "removed" } as const;

/** How a moderator's decision closes the item's open reports. */
const RESOLUTION = { restore: "kept", remove: "removed" } as const;

/** Reported items per page of the queue, and held posts shown at once. */
export const QUEUE_PAGE_SIZE = 25;
export const HELD_POSTS_SHOWN = 50;
/** The newest notes shown with each reported item. */
const NOTES_PER_ITEM = 3;

export interface ModerationOutcome {
  item_type: ModerateInput["item_type"];
  item_id: string;
  status: PostStatus | CommentStatus;
}

/** Who acts: a moderator or admin, or null for the site itself (auto-hide). */
type Actor = CurrentUser | null;

function audit(tx: DbOrTx, actor: Actor, entry: AuditEntry) {
  return actor ? recordAudit(tx, actor, entry) : recordSystemAudit(tx, entry);
}

/** What the reporters of an item are told when a moderator decides on it. */
function reporterMessage(subject: string, action: "restore" | "remove"): string {
  return action === "remove"
    ? `Thanks for your report of ${subject}: a moderator removed it.`
    : `Thanks for your report of ${subject}: a moderator reviewed it and left it up.`;
}

/**
 * Closes the item's open reports with the decision and leaves each reporter a notification (not
 * the moderator who decided, should they have reported it too).
 */
async function closeReports(
  tx: DbOrTx,
  actor: Actor,
  item: { type: ReportItemType; id: string; subject: string; link: string },
  action: "restore" | "remove",
  resolution: string,
) {
  const reporters = await repo.resolveOpenReports(
    tx,
    item.type,
    item.id,
    resolution,
    actor?.id ?? null,
  );
  await notify(
    tx,
    reporters
      .filter((id) => id !== actor?.id)
      .map((userId) => ({
        userId,
        kind: "report_resolved",
        message: reporterMessage(item.subject, action),
        // A removed item is out of the reporter's sight: nothing to link to.
        link: action === "remove" ? "" : item.link,
      })),
  );
}

/**
 * What the author of an item is told when its status changes: hidden or removed (with the
 * moderator's reason), hidden automatically, approved or restored. Nothing when the status stays
 * or the author is the one acting.
 */
function authorNotice(
  actor: Actor,
  authorId: number | null,
  change: { from: string; to: string; what: string; link: string; reason: string },
): NewNotification[] {
  if (authorId === null || change.from === change.to || authorId === actor?.id) return [];
  const reason = change.reason ? ` Reason: ${change.reason}` : "";
  let message: string;
  if (change.to === "hidden") {
    message = actor
      ? `A moderator hid ${change.what} until it is reviewed.${reason}`
      : `${capitalise(change.what)} is hidden until a moderator reviews it, after several members reported it.`;
  } else if (change.to === "removed") {
    message = `A moderator removed ${change.what}.${reason}`;
  } else if (change.from === "pending") {
    message = `${capitalise(change.what)} was approved and is now public.`;
  } else {
    message = `A moderator restored ${change.what}; it is public again.`;
  }
  return [{ userId: authorId, kind: "moderation", message, link: change.link }];
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Tells the author of a moderation decision, in-site and, when there is a queue, on their devices
 * that have push on (docs/decisions/0109-push-alerts.md), in the same transaction.
 */
async function tellAuthor(tx: DbOrTx, notices: NewNotification[], jobs: JobQueue | undefined) {
  await notify(tx, notices);
  if (!jobs) return;
  await queuePushes(
    jobs,
    tx,
    notices.map((n) => ({
      userId: n.userId,
      kind: "moderation" as const,
      title: "A moderator's decision",
      body: n.message,
      url: n.link || "/user/notifications",
      tag: `moderation-${n.link || n.userId}`,
    })),
  );
}

async function moderatePost(
  tx: DbOrTx,
  actor: Actor,
  input: ModerateInput & { item_type: "d" | "g" },
  jobs?: JobQueue,
) {
  const status = STATUS_AFTER[input.action];
  const post = await repo.lockPostForModeration(tx, input.item_id, input.item_type);
  if (!post) throw new NotFoundError("That post does not exist.");
  await repo.setPostStatus(tx, post.id, status, input.action === "restore" ? "" : input.reason);
  // Keyword alerts (record 0045): a deal that becomes public (approved, restored) is matched then.
  if (jobs && post.post_type === "d" && status === "active" && post.status !== "active") {
    await queueAlertMatching(jobs, tx, { postId: post.id, trigger: "publish" });
  }
  // A removal costs the author points, and a restore gives them back: recount them now rather
  // than at the next quarter hour (record 0088).
  if (jobs && post.user_id !== null && (status === "removed") !== (post.status === "removed")) {
    await queueReputationRecompute(jobs, post.user_id, tx);
  }
  await audit(tx, actor, {
    action: `post.${input.action}`,
    itemType: input.item_type,
    itemId: post.unique_id,
    reason: input.reason,
    before: { status: post.status },
    after: { status },
  });
  const link = postPath(post);
  if (input.action !== "hide") {
    await closeReports(
      tx,
      actor,
      { type: input.item_type, id: post.unique_id, subject: `“${post.title}”`, link },
      input.action,
      RESOLUTION[input.action],
    );
  }
  const noun = input.item_type === "d" ? "deal" : "discussion";
  await tellAuthor(
    tx,
    authorNotice(actor, post.user_id, {
      from: post.status,
      to: status,
      what: `your ${noun} “${post.title}”`,
      link,
      reason: input.reason,
    }),
    jobs,
  );
  return { item_type: input.item_type, item_id: post.unique_id, status, topic: "posts" as const };
}

async function moderateComment(tx: DbOrTx, actor: Actor, input: ModerateInput, jobs?: JobQueue) {
  const status = STATUS_AFTER[input.action];
  const id = Number(input.item_id);
  // The post's row is locked before the comment's, in the order comment writers take them.
  const postId = Number.isSafeInteger(id) ? await repo.findCommentPostId(tx, id) : undefined;
  if (postId !== undefined) await repo.lockPostRow(tx, postId);
  const comment = postId !== undefined ? await repo.lockCommentForModeration(tx, id) : undefined;
  if (!comment) throw new NotFoundError("That comment does not exist.");
  await repo.setCommentStatus(tx, comment.id, status);
  // comments_count counts what the public sees. Recounted under the post's lock rather than moved
  // by one, so a comment the console already deleted (a placeholder) cannot skew it.
  await recountComments(tx, [comment.post_id]);
  await audit(tx, actor, {
    action: `comment.${input.action}`,
    itemType: "comment",
    itemId: comment.id,
    reason: input.reason,
    before: { status: comment.status },
    after: { status },
  });
  const post = {
    post_type: comment.post_type,
    unique_id: comment.post_unique_id,
    slug: comment.post_slug,
  };
  const link = `${postPath(post)}#comment-${comment.id}`;
  if (input.action !== "hide") {
    await closeReports(
      tx,
      actor,
      {
        type: "comment",
        id: String(comment.id),
        subject: `the comment “${excerpt(htmlToText(comment.body), 60)}” on “${comment.post_title}”`,
        link,
      },
      input.action,
      RESOLUTION[input.action],
    );
  }
  await tellAuthor(
    tx,
    authorNotice(actor, comment.user_id, {
      from: comment.status,
      to: status,
      what: `your comment on “${comment.post_title}”`,
      link,
      reason: input.reason,
    }),
    jobs,
  );
  return {
    item_type: "comment" as const,
    item_id: String(comment.id),
    status,
    topic: "comments" as const,
  };
}

/**
 * Reports on a member are settled by suspension (another console action) or dismissed here:
 * "restore" closes them with no action and tells the reporters.
 */
async function dismissUserReports(tx: DbOrTx, actor: Actor, input: ModerateInput) {
  if (input.action !== "restore") {
    throw new ValidationError({
      action: "A user is moderated by suspending them (POST /api/admin/suspend).",
    });
  }
  const id = Number(input.item_id);
  const user = Number.isSafeInteger(id) ? await repo.findUserForModeration(tx, id) : undefined;
  if (!user) throw new NotFoundError("That user does not exist.");
  await audit(tx, actor, {
    action: "user.dismiss_reports",
    itemType: "user",
    itemId: user.id,
    reason: input.reason,
  });
  await closeReports(
    tx,
    actor,
    {
      type: "user",
      id: String(user.id),
      subject: `the profile of “${user.name}”`,
      link: `/profile/${user.id}`,
    },
    "restore",
    "no action",
  );
  return {
    item_type: "user" as const,
    item_id: String(user.id),
    status: "active" as const,
    topic: "users" as const,
  };
}

/** The one way an item's moderation status changes, by a staff member or by the site itself. */
function moderateItem(
  tx: DbOrTx,
  actor: Actor,
  input: ModerateInput,
  jobs?: JobQueue,
): Promise<ModerationOutcome & { topic: "posts" | "comments" | "users" }> {
  if (input.item_type === "d" || input.item_type === "g") {
    return moderatePost(tx, actor, { ...input, item_type: input.item_type }, jobs);
  }
  if (input.item_type === "comment") return moderateComment(tx, actor, input, jobs);
  return dismissUserReports(tx, actor, input);
}

/**
 * Hides, restores or removes one item inside the caller's transaction, with its audit entry.
 * Public visibility follows from the status alone (only "active" is public); the caller emits the
 * change after commit. Restoring or removing also closes the item's open reports and tells each
 * reporter; the author is told when a moderator hides, removes, approves or restores their item.
 * For a user, "restore" dismisses the reports; hiding or removing a user is refused (suspend them).
 */
export async function applyModeration(
  tx: DbOrTx,
  actor: CurrentUser,
  input: ModerateInput,
  /**
   * The queue, so a deal made public is matched against keyword alerts (record 0045) and the
   * author's devices are pushed the decision (record 0109).
   */
  jobs?: JobQueue,
): Promise<ModerationOutcome & { topic: "posts" | "comments" | "users" }> {
  return moderateItem(tx, actor, input, jobs);
}

function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: string }).code === "23505"
  );
}

/**
 * The reported item's author, when the item exists and is public (a held, hidden or removed item,
 * a deleted comment or account is not): a NotFoundError otherwise. `itemId` is canonical.
 */
async function publicItemOwner(
  tx: DbOrTx,
  type: ReportItemType,
  itemId: string,
): Promise<number | null> {
  const notFound = new NotFoundError(REPORT_MESSAGES.notFound);
  if (type === "d" || type === "g") {
    const post = await repo.findReportedPost(tx, itemId, type);
    if (!post || post.status !== "active") throw notFound;
    return post.user_id;
  }
  if (type === "comment") {
    const comment = await repo.findReportedComment(tx, Number(itemId));
    if (!comment || comment.deleted_at || comment.status !== "active") throw notFound;
    if (comment.post_status !== "active") throw notFound;
    return comment.user_id;
  }
  const user = await repo.findUserForModeration(tx, Number(itemId));
  if (!user || user.deleted_at) throw notFound;
  return user.id;
}

/** A comment's or user's id as stored ("12", never "012"); a post's unique_id as given. */
function canonicalItemId(type: ReportItemType, itemId: string): string {
  if (type === "d" || type === "g") return itemId;
  if (!/^\d{1,15}$/.test(itemId)) throw new NotFoundError(REPORT_MESSAGES.notFound);
  return String(Number(itemId));
}

export function createModerationService(deps: Deps) {
  const { db, changes, now } = deps;
  return {
    /**
     * `POST /api/report`: a member's report of a public item. One open report per member and item
     * (a repeat is a ConflictError); nobody reports their own things. When enough different members
     * have open reports on a post or comment (general_settings.report_hide_threshold), it is hidden
     * in the same transaction, by the site itself, until a moderator decides. A reported member is
     * never hidden automatically: their reports wait in the queue.
     */
    async report(user: CurrentUser | null, input: ReportInput): Promise<{ message: string }> {
      const reporter = requireUser(user);
      if (!reporter.email_verified) throw new ForbiddenError(REPORT_MESSAGES.confirmFirst);
      const type = input.item_type;
      const itemId = canonicalItemId(type, input.item_id);
      let hidden: "posts" | "comments" | "users" | null;
      try {
        hidden = await db.transaction().execute(async (tx) => {
          await repo.lockReportedItem(tx, type, itemId);
          const ownerId = await publicItemOwner(tx, type, itemId);
          if (!canReport(reporter, ownerId)) throw new ForbiddenError(REPORT_MESSAGES.own);
          if (await repo.findOpenReport(tx, reporter.id, type, itemId)) {
            throw new ConflictError(REPORT_MESSAGES.repeat);
          }
          await repo.insertReport(tx, {
            item_type: type,
            item_id: itemId,
            reporter_id: reporter.id,
            reason: input.reason,
            note: input.note,
            created_at: now(),
          });
          if (type === "user") return null;
          const { reportHideThreshold } = await repo.findModerationSettings(tx);
          const reporters = await repo.countOpenReporters(tx, type, itemId);
          if (reporters < reportHideThreshold) return null;
          const outcome = await moderateItem(
            tx,
            null,
            {
              item_type: type,
              item_id: itemId,
              action: "hide",
              reason: `Hidden automatically: reported by ${reporters} members.`,
            },
            deps.jobs,
          );
          return outcome.topic;
        });
      } catch (error) {
        // Two reports by the same member at the same moment: the unique index keeps one.
        if (isUniqueViolation(error)) throw new ConflictError(REPORT_MESSAGES.repeat);
        throw error;
      }
      if (hidden) changes.emit(hidden);
      return { message: REPORT_MESSAGES.sent };
    },

    /** `POST /api/admin/moderate`: one item hidden, restored or removed by a moderator. */
    async moderate(user: CurrentUser | null, input: ModerateInput): Promise<ModerationOutcome> {
      const actor = requireRole(user, "moderator");
      const { topic, ...outcome } = await db
        .transaction()
        .execute((tx) => applyModeration(tx, actor, input, deps.jobs));
      changes.emit(topic);
      return outcome;
    },

    /**
     * `GET /api/admin/reports`: the open reports grouped by item (most reported first, then the
     * most recently reported), a page at a time, and the posts held for review, oldest first.
     */
    async queue(user: CurrentUser | null, page = 1) {
      requireRole(user, "moderator");
      const perPage = QUEUE_PAGE_SIZE;
      const [groups, total, held, heldTotal] = await Promise.all([
        repo.findReportGroups(db, (page - 1) * perPage, perPage),
        repo.countReportGroups(db),
        repo.findHeldPosts(db, HELD_POSTS_SHOWN),
        repo.countHeldPosts(db),
      ]);
      const idsOf = (types: ReportItemType[]) =>
        groups.filter((g) => types.includes(g.item_type)).map((g) => g.item_id);
      const numeric = (ids: string[]) => ids.map(Number).filter(Number.isSafeInteger);
      const [reasons, notes, posts, comments, users] = groups.length
        ? await Promise.all([
            repo.findReportReasons(db, groups),
            repo.findReportNotes(db, groups, NOTES_PER_ITEM),
            repo.findPostsByUniqueIds(db, idsOf(["d", "g"])),
            repo.findCommentsByIds(db, numeric(idsOf(["comment"]))),
            repo.findUsersByIds(db, numeric(idsOf(["user"]))),
          ])
        : [[], [], [], [], []];
      return {
        items: presentReportGroups(groups, { reasons, notes, posts, comments, users }, now()),
        pagination: {
          total,
          per_page: perPage,
          current_page: page,
          last_page: lastPage(total, perPage),
        },
        held_posts: presentHeldPosts(held),
        held_total: heldTotal,
      };
    },
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
export type ModerationQueue = Awaited<ReturnType<ModerationService["queue"]>>;
