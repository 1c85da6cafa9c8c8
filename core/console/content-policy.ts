import { requireRole } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { ConflictError, ValidationError } from "../errors.ts";

/** What the console does to the site's content (stores, categories, pages, lists, messages). */
export type ContentAction = "read" | "create" | "update" | "order" | "delete";

/**
 * Who may do it: moderators read, create, edit and order the site's content; deleting it for good
 * is an administrator's (record 0031: moderators get everything except settings, roles and hard
 * deletes). Every service checks this, whatever the route or the page already checked.
 */
export function requireContentRole(user: CurrentUser | null, action: ContentAction): CurrentUser {
  return requireRole(user, action === "delete" ? "admin" : "moderator");
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

export interface DeletionCheck {
  /** "store", "category", "forum category". */
  kind: string;
  title: string;
  id: number;
  /** How many items still belong to it, and what they are ("deal", "post"). */
  inUse: number;
  usedNoun: string;
  /** Where the caller asked to move them, if anywhere. */
  moveTo: number | undefined;
}

/**
 * Whether something still in use may be deleted: not while items belong to it, unless they move
 * to another of its kind first. Answers where they move (null when there is nothing to move).
 */
export function planDeletion(check: DeletionCheck): { moveTo: number | null } {
  const { kind, title, id, inUse, usedNoun, moveTo } = check;
  if (moveTo !== undefined && moveTo === id) {
    throw new ValidationError({
      move_to: `Choose another ${kind} to move the ${usedNoun}s to.`,
    });
  }
  if (inUse === 0) return { moveTo: null };
  if (moveTo === undefined) {
    throw new ConflictError(
      `“${title}” still has ${plural(inUse, usedNoun)}. Choose another ${kind} to move ` +
        `${inUse === 1 ? "it" : "them"} to, then delete it.`,
      { in_use: inUse },
    );
  }
  return { moveTo };
}
