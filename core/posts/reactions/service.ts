import { createHmac, randomBytes } from "node:crypto";
import { requireActingUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import type { Deps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { notifyPostLiked } from "../../member/notifications/events.ts";
import { adjustPostCounters, lockLivePost } from "../post-counters.ts";
import { HOT_DEGREES, temperatureOf } from "../temperature.ts";
import { queueAlertMatching } from "../../member/alerts/jobs.ts";
import { memberLevel } from "../../people/reputation/member-reputation.ts";
import { recordPeak } from "../../people/reputation/post-peaks.ts";
import { voteWeightOf } from "../../people/reputation/privileges.ts";
import { assertMayVote, voteNetworkOf } from "../../moderation/voting/guard.ts";
import { findReaction, findReactions } from "./member-reaction.ts";
import * as repo from "./repository.ts";
import type { LikeInput, MyReactionsInput, Reaction } from "./schema.ts";

/** Where a reaction comes from. */
export interface ReactionContext {
  /** The client's address as rate limits count it (an IPv6 address by its /64). */
  clientAddress: string;
}

/** Thumbs up / thumbs down on posts: at most one reaction per user and post. */
export function createReactionsService({ db, now, changes, jobs }: Deps) {
  let salt: { day: string; value: Promise<string> } | null = null;

  /**
   * A keyed hash of the voter's address: equal for votes from one address on one UTC day, and
   * not the address (docs/decisions/0008-trending-score.md).
   */
  async function voterKey(clientAddress: string): Promise<string> {
    const day = now().toISOString().slice(0, 10);
    if (salt?.day !== day) {
      const value = repo.voteSalt(db, day, randomBytes(32).toString("hex"));
      value.catch(() => (salt = null));
      salt = { day, value };
    }
    return createHmac("sha256", await salt.value)
      .update(clientAddress)
      .digest("base64url");
  }

  return {
    /**
     * The signed-in member's reactions to some posts (the cards on screen), for the buttons'
     * pressed state. Posts they did not react to, or that do not exist, are left out.
     */
    async mine(user: CurrentUser | null, { post_ids }: MyReactionsInput) {
      const actor = requireActingUser(user, undefined);
      const ids = [...new Set(post_ids)];
      const rows = await findReactions(db, actor.id, ids);
      return rows.map((row) => ({ post_id: row.post_id, reaction: row.reaction }));
    },
    /**
     * Pressing the button of the reaction one already has takes it back (whatever the reason);
     * pressing the other one switches to it. A cold vote may say why (`reason`, record 0086),
     * which the schema allows only with an unlike. A vote weighs by the voter's level as it is
     * when the vote is cast or changed (record 0090). Counters and the trending score change in
     * the same transaction.
     */
    async toggle(
      user: CurrentUser | null,
      { user_id, post_id, post_type, btn_type, reason }: LikeInput,
      context: ReactionContext,
    ) {
      const actor = requireActingUser(user, user_id);
      const key = await voterKey(context.clientAddress);
      const result = await db.transaction().execute(async (trx) => {
        // In the vote's transaction, so that a block placed a moment before is never missed.
        await assertMayVote(trx, actor.id, now());
        const post = await lockLivePost(trx, post_id, post_type);
        if (!post) throw new NotFoundError();
        const previous = await findReaction(trx, post.id, actor.id);
        const next: Reaction | null = previous === btn_type ? null : btn_type;
        if (next) {
          const weight = voteWeightOf(await memberLevel(trx, actor.id));
          await repo.setReaction(trx, {
            userId: actor.id,
            postId: post.id,
            reaction: next,
            voterKey: key,
            reason: reason ?? null,
            weight,
            voterNetwork: await voteNetworkOf(trx, context.clientAddress),
          });
        } else {
          await repo.removeReaction(trx, actor.id, post.id);
        }
        if (next === "like") await notifyPostLiked(trx, { postId: post.id, actor });
        const change = (reaction: Reaction) =>
          (next === reaction ? 1 : 0) - (previous === reaction ? 1 : 0);
        const counts = await adjustPostCounters(trx, post.id, {
          likes: change("like"),
          unlikes: change("unlike"),
        });
        // Keyword alerts (record 0045): "only hot" alerts match when a vote makes a deal hot.
        const degrees = temperatureOf(counts);
        const before = temperatureOf(post);
        if (post.post_type === "d" && degrees >= HOT_DEGREES && before < HOT_DEGREES) {
          await queueAlertMatching(jobs, trx, { postId: post.id, trigger: "hot" });
        }
        // The heat a deal reaches earns its poster points (record 0088): the reputation job reads
        // the peaks kept here rather than every post.
        if (post.post_type === "d") await recordPeak(trx, post.id, degrees, now());
        return {
          reaction: next,
          likes: counts.likes_count,
          unlikes: counts.unlikes_count,
          temperature: temperatureOf(counts),
        };
      });
      changes.emit("reactions");
      return result;
    },
  };
}

export type ReactionsService = ReturnType<typeof createReactionsService>;
