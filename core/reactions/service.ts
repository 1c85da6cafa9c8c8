import { requireActingUser } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import { findReaction } from "../posts/repository.ts";
import * as repo from "./repository.ts";
import type { LikeInput, Reaction } from "./schema.ts";

/** Thumbs up / thumbs down on posts: at most one reaction per user and post. */
export function createReactionsService({ db }: Deps) {
  return {
    /**
     * Pressing the button of the reaction one already has takes it back; pressing the other one
     * switches to it. Counters and the trending score change in the same transaction.
     */
    async toggle(user: CurrentUser | null, { user_id, post_id, post_type, btn_type }: LikeInput) {
      const actor = requireActingUser(user, user_id);
      return db.transaction().execute(async (trx) => {
        const post = await repo.lockLivePost(trx, post_id, post_type);
        if (!post) throw new NotFoundError();
        const previous = await findReaction(trx, post.id, actor.id);
        const next: Reaction | null = previous === btn_type ? null : btn_type;
        if (next) await repo.setReaction(trx, actor.id, post.id, next);
        else await repo.removeReaction(trx, actor.id, post.id);
        const change = (reaction: Reaction) =>
          (next === reaction ? 1 : 0) - (previous === reaction ? 1 : 0);
        const counts = await repo.adjustPostCounters(trx, post.id, {
          likes: change("like"),
          unlikes: change("unlike"),
        });
        return { reaction: next, likes: counts.likes_count, unlikes: counts.unlikes_count };
      });
    },
  };
}

export type ReactionsService = ReturnType<typeof createReactionsService>;
