import { recordAudit, recordSystemAudit } from "../../audit/audit-trail.ts";
import { requireActingUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import type { Deps } from "../../deps.ts";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../../errors.ts";
import { canMark, canReopen, expiresAlone } from "./policy.ts";
import * as repo from "./repository.ts";
import {
  EXPIRY_MESSAGES as M,
  uniqueIdOk,
  type MarkExpiredInput,
  type ReopenDealInput,
} from "./schema.ts";
import { hasEnded } from "../policy.ts";

/** What the deal page's expiry panel shows, and what the mark and reopen calls answer. */
export interface ExpiryStatus {
  unique_id: string;
  is_expired: boolean;
  /** Distinct members who marked it since it was last live. */
  marks: number;
  /** Marks that expire it (the setting). */
  threshold: number;
  /** The viewer's own mark is among them. */
  marked_by_you: boolean;
  /** The viewer may mark it (signed in, not its poster, not marked yet, deal live). */
  can_mark: boolean;
  /** The viewer may reopen it (its poster or a moderator, deal expired). */
  can_reopen: boolean;
}

/**
 * Expiry of deals (docs/decisions/0037-deal-expiry.md): "Expired?" marks by members
 * (enough distinct ones, or one moderator, expire a deal) and reopening by the poster or a
 * moderator. The minute sweep (./sweep.ts) keeps posts.expired in step with expires_at.
 */
export function createExpiryService({ db, now, changes }: Deps) {
  const isExpired = (post: { expired: boolean; expires_at: Date | null }, at: Date) =>
    post.expired || hasEnded(post, at);

  /** The deal named, locked; 404 when there is none (or it is not public), 422 for a forum post. */
  async function lockDeal(tx: Parameters<typeof repo.lockPostByUniqueId>[0], uniqueId: string) {
    const post = await repo.lockPostByUniqueId(tx, uniqueId);
    if (!post || post.status !== "active") throw new NotFoundError(M.notFound);
    if (post.post_type !== "d") throw new ValidationError({ unique_id: M.notADeal });
    return post;
  }

  async function status(
    post: { id: number; user_id: number | null; expired: boolean; expires_at: Date | null },
    uniqueId: string,
    viewer: CurrentUser | null,
    at: Date,
    tx: Parameters<typeof repo.countMarks>[0] = db,
  ): Promise<ExpiryStatus> {
    const [marks, threshold, mine] = await Promise.all([
      repo.countMarks(tx, post.id),
      repo.findMarkThreshold(tx),
      viewer ? repo.hasMarked(tx, post.id, viewer.id) : false,
    ]);
    const expired = isExpired(post, at);
    return {
      unique_id: uniqueId,
      is_expired: expired,
      marks,
      threshold,
      marked_by_you: mine,
      can_mark: !expired && !mine && canMark(viewer, post),
      can_reopen: expired && canReopen(viewer, post),
    };
  }

  return {
    /** The deal page's panel: null for a post that is not a public deal. */
    async status(uniqueId: string, viewer: CurrentUser | null): Promise<ExpiryStatus | null> {
      if (!uniqueIdOk(uniqueId)) return null;
      const post = await repo.findPostByUniqueId(db, uniqueId);
      if (!post || post.status !== "active" || post.post_type !== "d") return null;
      return status(post, uniqueId, viewer, now());
    },

    /**
     * `POST /api/mark_expired`: the member's mark. A moderator's expires the deal at once; a
     * member's counts, and the threshold's mark expires it. Refused: the poster's own deal (403),
     * a second mark (409), a deal already expired (409), a forum post (422), no such deal (404).
     */
    async mark(user: CurrentUser | null, input: MarkExpiredInput) {
      const actor = requireActingUser(user, input.user_id);
      const at = now();
      const result = await db.transaction().execute(async (tx) => {
        const post = await lockDeal(tx, input.unique_id);
        if (post.user_id === actor.id) throw new ForbiddenError(M.ownDeal);
        if (isExpired(post, at)) throw new ConflictError(M.alreadyExpired);
        let ended = false;
        if (expiresAlone(actor)) {
          await repo.expireNow(tx, post.id, at);
          await recordAudit(tx, actor, {
            action: "post.expire",
            itemType: "d",
            itemId: post.unique_id,
            reason: "Marked expired on the deal page",
            before: { expires_at: post.expires_at?.toISOString() ?? null },
            after: { expires_at: at.toISOString() },
          });
          ended = true;
        } else {
          if (!(await repo.insertMark(tx, post.id, actor.id, at))) {
            throw new ConflictError(M.alreadyMarked);
          }
          const [marks, threshold] = await Promise.all([
            repo.countMarks(tx, post.id),
            repo.findMarkThreshold(tx),
          ]);
          if (marks >= threshold) {
            await repo.expireNow(tx, post.id, at);
            await recordSystemAudit(tx, {
              action: "post.expire",
              itemType: "d",
              itemId: post.unique_id,
              reason: `${marks} members marked it expired`,
              before: { expires_at: post.expires_at?.toISOString() ?? null },
              after: { expires_at: at.toISOString() },
            });
            ended = true;
          }
        }
        const after = ended ? { ...post, expired: true, expires_at: at } : post;
        return { ended, status: await status(after, post.unique_id, actor, at, tx) };
      });
      if (result.ended) changes.emit("posts");
      return { message: result.ended ? M.expired : M.marked, ...result.status };
    },

    /**
     * `POST /api/reopen_deal`: the poster or a moderator makes an expired deal live again (no end
     * date, marks cleared), audit-logged. Others 403; a live deal 409.
     */
    async reopen(user: CurrentUser | null, input: ReopenDealInput) {
      const actor = requireActingUser(user, input.user_id);
      const at = now();
      const result = await db.transaction().execute(async (tx) => {
        const post = await lockDeal(tx, input.unique_id);
        if (!canReopen(actor, post)) throw new ForbiddenError(M.reopenForbidden);
        if (!isExpired(post, at)) throw new ConflictError(M.notExpired);
        await repo.reopen(tx, post.id, at);
        await recordAudit(tx, actor, {
          action: "post.reopen",
          itemType: "d",
          itemId: post.unique_id,
          reason: post.user_id === actor.id ? "Reopened by its poster" : "Reopened by a moderator",
          before: { expires_at: post.expires_at?.toISOString() ?? null },
          after: { expires_at: null },
        });
        const after = { ...post, expired: false, expires_at: null };
        return status(after, post.unique_id, actor, at, tx);
      });
      changes.emit("posts");
      return { message: M.reopened, ...result };
    },
  };
}

export type ExpiryService = ReturnType<typeof createExpiryService>;
