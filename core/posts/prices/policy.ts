import { requireRole } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";

/** Merging deals into one product is a moderator's (401 for a visitor, 403 for a member). */
export function requireProductMerge(user: CurrentUser | null): CurrentUser {
  return requireRole(user, "moderator");
}
