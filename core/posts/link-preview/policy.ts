import { requireConfirmedUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";

/**
 * Who may have a page read for them: whoever may post a deal (a signed-in member with a confirmed
 * address, docs/decisions/0013), since the preview fetches for them and stores a picture.
 */
export function requirePreviewer(user: CurrentUser | null): CurrentUser {
  return requireConfirmedUser(user);
}
