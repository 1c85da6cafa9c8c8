import type { Transaction } from "kysely";
import type { Db, DbOrTx } from "../../../db/index.ts";
import type { Database, UserRole } from "../../../db/schema.ts";
import { deleteAccount } from "../accounts/account-deletion.ts";
import {
  changedFields,
  recordAudit,
  SHELL_ACTOR,
  type AuditActor,
} from "../../audit/audit-trail.ts";
import { hasRole, requireRole, type StaffRole } from "../../auth/policy.ts";
import { deleteUserSessions, type CurrentUser } from "../../auth/sessions.ts";
import { isSuspended } from "../../auth/suspension.ts";
import type { Deps } from "../../deps.ts";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../../errors.ts";
import {
  deletionRefusal,
  roleChangeRefusal,
  suspensionRefusal,
  unsuspensionRefusal,
  verifiedMarkRefusal,
  type Refusal,
} from "./policy.ts";
import { presentConsoleUser, type ConsoleUser } from "./presenter.ts";
import * as repo from "./repository.ts";
import {
  USER_MESSAGES,
  USERS_PAGE_SIZE,
  type ChangeRoleInput,
  type DeleteUserInput,
  type SuspendInput,
  type UnsuspendInput,
  type UsersQueryInput,
  type VerifiedEducatorInput,
} from "./schema.ts";

const USER_NOT_FOUND = "That user does not exist.";

function refuse(refusal: Refusal): void {
  if (!refusal) return;
  throw refusal.kind === "forbidden"
    ? new ForbiddenError(refusal.message)
    : new ConflictError(refusal.message);
}

async function lockTarget(tx: DbOrTx, userId: number) {
  const target = await repo.lockUser(tx, userId);
  if (!target) throw new NotFoundError(USER_NOT_FOUND);
  return target;
}

/**
 * A role change inside the caller's transaction (the console's and the shell's): the last usable
 * administrator keeps the role; an unchanged role writes nothing. Returns the role before.
 */
async function applyRoleChange(
  tx: Transaction<Database>,
  actor: AuditActor,
  target: repo.UserRow,
  role: UserRole,
  reason: string,
  at: Date,
): Promise<UserRole> {
  const otherAdmins = await repo.countOtherUsableAdmins(tx, target.id, at);
  refuse(roleChangeRefusal(actor.id, target, role, otherAdmins));
  if (target.role === role) return target.role;
  await repo.setRole(tx, target.id, role, at);
  await recordAudit(tx, actor, {
    action: "user.role",
    itemType: "user",
    itemId: target.id,
    reason,
    before: { role: target.role },
    after: { role },
  });
  return target.role;
}

/**
 * `npm run user:role`: sets the role of the live account with this address, with the same
 * last-administrator rule as the console, audited as done by the shell. Returns the address as
 * stored and the roles before and after.
 */
export async function assignRoleFromShell(
  db: Db,
  input: { email: string; role: UserRole },
  now: Date = new Date(),
): Promise<{ email: string; before: UserRole; after: UserRole }> {
  return db.transaction().execute(async (tx) => {
    await repo.lockPeopleChanges(tx);
    const target = await repo.lockLiveUserByEmail(tx, input.email);
    if (!target) throw new NotFoundError(`No account has the email address ${input.email}.`);
    const before = await applyRoleChange(tx, SHELL_ACTOR, target, input.role, "", now);
    return { email: target.email, before, after: input.role };
  });
}

/** The console's users page: the list, roles, suspensions, the verified-educator mark, deletion. */
export function createUsersService(deps: Deps) {
  const { db, changes, now } = deps;

  /**
   * Runs a change to people in one transaction, one at a time across the site, after checking
   * again — under that lock — that the actor still holds `role` and is neither deleted nor
   * suspended (another administrator may have just changed that).
   */
  async function peopleChange<T>(
    actor: CurrentUser,
    role: StaffRole,
    work: (tx: Transaction<Database>, at: Date) => Promise<T>,
  ): Promise<T> {
    const at = now();
    return db.transaction().execute(async (tx) => {
      await stillEntitled(tx, actor, role, at);
      return work(tx, at);
    });
  }

  async function stillEntitled(
    tx: Transaction<Database>,
    actor: CurrentUser,
    role: StaffRole,
    at: Date,
  ) {
    await repo.lockPeopleChanges(tx);
    // Every change to people waits for that lock, so a plain read sees the latest of them.
    const current = await repo.findUser(tx, actor.id);
    if (
      !current ||
      current.deleted_at ||
      isSuspended(current, at) ||
      !hasRole({ ...actor, role: current.role }, role)
    ) {
      // The same refusal the route gives a member.
      requireRole({ ...actor, role: "member" }, role);
    }
  }

  async function presentOne(userId: number): Promise<ConsoleUser> {
    const row = await repo.findUser(db, userId);
    if (!row) throw new NotFoundError(USER_NOT_FOUND);
    return presentConsoleUser(row, now());
  }

  return {
    /** `GET /api/admin/users`: one page of accounts, searched and filtered. */
    async list(user: CurrentUser | null, query: UsersQueryInput) {
      requireRole(user, "moderator");
      const at = now();
      const { rows, total } = await repo.listUsers(db, query, at, USERS_PAGE_SIZE);
      return {
        users: rows.map((row) => presentConsoleUser(row, at)),
        page: query.page,
        last_page: Math.max(1, Math.ceil(total / USERS_PAGE_SIZE)),
        total,
      };
    },

    /** `POST /api/admin/users/role` (administrators). */
    async changeRole(user: CurrentUser | null, input: ChangeRoleInput) {
      const actor = requireRole(user, "admin");
      const before = await peopleChange(actor, "admin", async (tx, at) => {
        const target = await lockTarget(tx, input.user_id);
        return applyRoleChange(tx, actor, target, input.role, input.reason, at);
      });
      if (before !== input.role) changes.emit("users");
      return { before, user: await presentOne(input.user_id) };
    },

    /**
     * `POST /api/admin/suspend`: the account cannot sign in until `until` (or until lifted), and
     * every session it has — browser cookies and the apps' bearer tokens alike — ends now.
     */
    async suspend(user: CurrentUser | null, input: SuspendInput) {
      const actor = requireRole(user, "moderator");
      if (input.until && input.until.getTime() <= now().getTime()) {
        throw new ValidationError({ until: USER_MESSAGES.untilPast });
      }
      await peopleChange(actor, "moderator", async (tx, at) => {
        const target = await lockTarget(tx, input.user_id);
        refuse(suspensionRefusal(actor, target));
        const after = {
          suspended_at: at,
          suspended_until: input.until ?? null,
          suspension_reason: input.reason,
        };
        await repo.setSuspension(tx, target.id, {
          at,
          until: after.suspended_until,
          reason: input.reason,
        });
        await deleteUserSessions(tx, target.id);
        await recordAudit(tx, actor, {
          action: "user.suspend",
          itemType: "user",
          itemId: target.id,
          reason: input.reason,
          ...changedFields(
            {
              suspended_at: target.suspended_at,
              suspended_until: target.suspended_until,
              suspension_reason: target.suspension_reason,
            },
            after,
          ),
        });
      });
      changes.emit("users");
      return presentOne(input.user_id);
    },

    /** `POST /api/admin/unsuspend`: lifts a suspension in force. */
    async unsuspend(user: CurrentUser | null, input: UnsuspendInput) {
      const actor = requireRole(user, "moderator");
      await peopleChange(actor, "moderator", async (tx, at) => {
        const target = await lockTarget(tx, input.user_id);
        refuse(unsuspensionRefusal(actor, target, at));
        await repo.clearSuspension(tx, target.id, at);
        await recordAudit(tx, actor, {
          action: "user.unsuspend",
          itemType: "user",
          itemId: target.id,
          before: {
            suspended_at: target.suspended_at,
            suspended_until: target.suspended_until,
            suspension_reason: target.suspension_reason,
          },
          after: { suspended_at: null, suspended_until: null, suspension_reason: "" },
        });
      });
      changes.emit("users");
      return presentOne(input.user_id);
    },

    /** `POST /api/admin/users/verified_educator`: marks or unmarks a verified educator. */
    async setVerifiedEducator(user: CurrentUser | null, input: VerifiedEducatorInput) {
      const actor = requireRole(user, "moderator");
      const changed = await peopleChange(actor, "moderator", async (tx, at) => {
        const target = await lockTarget(tx, input.user_id);
        refuse(verifiedMarkRefusal(target));
        if (target.verified_educator === input.verified) return false;
        await repo.setVerifiedEducator(tx, target.id, input.verified, at);
        await recordAudit(tx, actor, {
          action: input.verified ? "user.verify_educator" : "user.unverify_educator",
          itemType: "user",
          itemId: target.id,
          before: { verified_educator: target.verified_educator },
          after: { verified_educator: input.verified },
        });
        return true;
      });
      if (changed) changes.emit("users");
      return presentOne(input.user_id);
    },

    /**
     * `POST /api/admin/users/delete` (administrators): the same anonymising deletion as a
     * member's own (core/people/accounts/account-deletion.ts), with its audit entry in its transaction.
     * The entry keeps no personal data: the point of the deletion is that it goes.
     */
    async deleteUser(user: CurrentUser | null, input: DeleteUserInput) {
      const actor = requireRole(user, "admin");
      await deleteAccount(deps, input.user_id, async (tx) => {
        const at = now();
        await stillEntitled(tx, actor, "admin", at);
        const target = await lockTarget(tx, input.user_id);
        refuse(deletionRefusal(actor, target));
        await recordAudit(tx, actor, {
          action: "user.delete",
          itemType: "user",
          itemId: target.id,
          reason: input.reason,
          before: { deleted: false, role: target.role },
          after: { deleted: true },
        });
      });
      return { user_id: input.user_id };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
