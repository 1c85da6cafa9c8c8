import type { UserRole } from "../../../db/schema.ts";
import { hasRole } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { isSuspended, type SuspensionState } from "../../auth/suspension.ts";

/**
 * Who may do what to whom in the console's users page. Each rule answers null when the action is
 * allowed, or the sentence that says why not. The route's role (moderator or admin) is checked
 * before these, by `requireRole`.
 */

export interface TargetUser extends SuspensionState {
  id: number;
  role: UserRole;
  deleted_at: Date | null;
}

export type Refusal = { kind: "forbidden" | "conflict"; message: string } | null;

export const USER_POLICY_MESSAGES = {
  deleted: "This account has been deleted.",
  suspendSelf: "You cannot suspend yourself.",
  suspendAdmin: "Only an administrator can suspend or unsuspend an administrator.",
  lastAdmin:
    "You are the only administrator: make someone else an administrator before you change your own role.",
  onlyAdmin: "This is the only administrator: make someone else an administrator first.",
  deleteSelf:
    "You cannot delete your own account here: use Delete account on your profile, which asks you to sign in again.",
  notSuspended: "This account is not suspended.",
} as const;

const M = USER_POLICY_MESSAGES;

/** Suspending or lifting a suspension: never oneself; an administrator only by an administrator. */
export function suspensionRefusal(actor: CurrentUser, target: TargetUser): Refusal {
  if (target.deleted_at) return { kind: "conflict", message: M.deleted };
  if (actor.id === target.id) return { kind: "forbidden", message: M.suspendSelf };
  if (target.role === "admin" && !hasRole(actor, "admin")) {
    return { kind: "forbidden", message: M.suspendAdmin };
  }
  return null;
}

/** Lifting a suspension: the same rule, and there must be one in force. */
export function unsuspensionRefusal(actor: CurrentUser, target: TargetUser, now: Date): Refusal {
  return (
    suspensionRefusal(actor, target) ??
    (isSuspended(target, now) ? null : { kind: "conflict", message: M.notSuspended })
  );
}

/**
 * Changing a role (administrators, or the shell: `actorId` null): the site always keeps an
 * administrator who can sign in, so the last one cannot step down. `otherAdmins` counts the
 * administrators of live, unsuspended accounts other than the target.
 */
export function roleChangeRefusal(
  actorId: number | null,
  target: TargetUser,
  role: UserRole,
  otherAdmins: number,
): Refusal {
  if (target.deleted_at) return { kind: "conflict", message: M.deleted };
  if (target.role === "admin" && role !== "admin" && otherAdmins === 0) {
    return {
      kind: "conflict",
      message: actorId === target.id ? M.lastAdmin : M.onlyAdmin,
    };
  }
  return null;
}

/** Deleting an account from the console (administrators only): never one's own, nor twice. */
export function deletionRefusal(actor: CurrentUser, target: TargetUser): Refusal {
  if (target.deleted_at) return { kind: "conflict", message: M.deleted };
  if (actor.id === target.id) return { kind: "forbidden", message: M.deleteSelf };
  return null;
}

/** Marking a verified educator: any live account. */
export function verifiedMarkRefusal(target: TargetUser): Refusal {
  return target.deleted_at ? { kind: "conflict", message: M.deleted } : null;
}

/** The status the console shows: deleted, suspended (in force) or active. */
export function userStatus(target: TargetUser, now: Date): "active" | "suspended" | "deleted" {
  if (target.deleted_at) return "deleted";
  return isSuspended(target, now) ? "suspended" : "active";
}
