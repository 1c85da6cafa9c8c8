import type { CurrentUser } from "../../auth/sessions.ts";
import { ValidationError } from "../../errors.ts";

/** Anyone signed in may follow anyone else; following oneself makes no sense. */
export function assertCanFollow(actor: CurrentUser, followeeId: number): void {
  if (actor.id === followeeId)
    throw new ValidationError({ user_id: "You cannot follow yourself." });
}
