import { data, redirect } from "react-router";
import type { RequestContext } from "#app-context";
import { hasRole, type StaffRole } from "../../core/auth/policy.ts";
import type { CurrentUser } from "../../core/auth/sessions.ts";

/**
 * The signed-in staff member a console page is for: a visitor is sent to /login, a member (or a
 * moderator on an admin-only page) gets 403. Every console loader and action calls this; the
 * services check the role again.
 */
export function requireConsoleUser(
  ctx: RequestContext,
  role: StaffRole = "moderator",
): CurrentUser {
  if (!ctx.user) throw redirect("/login");
  if (!hasRole(ctx.user, role)) throw data("Forbidden", { status: 403 });
  return ctx.user;
}
