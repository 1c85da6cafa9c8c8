import type { CurrentUser } from "../auth/sessions.ts";
import { ValidationError } from "../errors.ts";

/** Private profile fields and the subscription block are shown to their owner only. */
export function isProfileOwner(viewer: CurrentUser | null, profileUserId: number): boolean {
  return viewer !== null && viewer.id === profileUserId;
}

/** Anyone signed in may follow anyone else; following oneself makes no sense. */
export function assertCanFollow(actor: CurrentUser, followeeId: number): void {
  if (actor.id === followeeId)
    throw new ValidationError({ user_id: "You cannot follow yourself." });
}
