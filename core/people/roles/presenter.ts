import { isSuspended } from "../../auth/suspension.ts";
import { userStatus } from "./policy.ts";
import type { UserRow } from "./repository.ts";

/**
 * One account as the console lists it. A deleted account's address is a tombstone, not an
 * address: it is shown as "". The suspension's end and reason only while it is in force.
 */
export function presentConsoleUser(row: UserRow & { posts_count?: number }, now: Date) {
  const suspended = !row.deleted_at && isSuspended(row, now);
  return {
    id: row.id,
    name: row.name,
    email: row.deleted_at ? "" : row.email,
    role: row.role,
    joined: row.created_at.toISOString(),
    posts_count: row.posts_count ?? 0,
    status: userStatus(row, now),
    suspended_until: suspended ? (row.suspended_until?.toISOString() ?? null) : null,
    suspension_reason: suspended ? row.suspension_reason : "",
    verified_educator: row.verified_educator,
  };
}

export type ConsoleUser = ReturnType<typeof presentConsoleUser>;
