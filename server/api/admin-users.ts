import { formatSuspensionEnd } from "../../core/auth/suspension.ts";
import {
  ChangeRoleBody,
  DeleteUserBody,
  SuspendBody,
  UnsuspendBody,
  UsersQuery,
  VerifiedEducatorBody,
} from "../../core/people/roles/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  ConsoleUserDeletedResponse,
  ConsoleUserResponse,
  ConsoleUsersResponse,
} from "../../core/people/roles/responses.ts";

const ROLE_NAMES = { member: "a member", moderator: "a moderator", admin: "an administrator" };

/** The console's users page: list, roles, suspension, verified educators, deletion. */
export const adminUsersApi: ApiModule = async (app, { services }) => {
  const users = services.users;

  apiRoute(app, {
    method: "GET",
    url: "/admin/users",
    tag: "Console",
    summary:
      "Accounts, newest first, 25 a page: ?q= (name, email or id), ?role=member|moderator|admin, " +
      "?status=active|suspended|deleted, ?page=",
    body: UsersQuery,
    response: ConsoleUsersResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await users.list(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/users/role",
    tag: "Console",
    summary:
      "Sets a user's role (member, moderator, admin); the last administrator cannot step down",
    body: ChangeRoleBody,
    response: ConsoleUserResponse,
    auth: "admin",
    handler: async ({ input, request }) => {
      const { before, user } = await users.changeRole(request.user, input);
      return {
        status: "true",
        message:
          before === input.role
            ? `${user.name} is already ${ROLE_NAMES[input.role]}.`
            : `${user.name} is now ${ROLE_NAMES[input.role]}.`,
        user,
      };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/suspend",
    tag: "Console",
    summary:
      "Suspends a user with a reason, until a future date (YYYY-MM-DD or ISO date and time) or until " +
      "lifted; their sessions and tokens end at once",
    body: SuspendBody,
    response: ConsoleUserResponse,
    auth: "moderator",
    handler: async ({ input, request }) => {
      const user = await users.suspend(request.user, input);
      const until = user.suspended_until
        ? `until ${formatSuspensionEnd(new Date(user.suspended_until))}`
        : "until the suspension is lifted";
      return { status: "true", message: `${user.name} is suspended ${until}.`, user };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/unsuspend",
    tag: "Console",
    summary: "Lifts a user's suspension",
    body: UnsuspendBody,
    response: ConsoleUserResponse,
    auth: "moderator",
    handler: async ({ input, request }) => {
      const user = await users.unsuspend(request.user, input);
      return { status: "true", message: `${user.name} can sign in again.`, user };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/users/verified_educator",
    tag: "Console",
    summary: "Marks (verified: true) or unmarks (false) a user as a verified educator",
    body: VerifiedEducatorBody,
    response: ConsoleUserResponse,
    auth: "moderator",
    handler: async ({ input, request }) => {
      const user = await users.setVerifiedEducator(request.user, input);
      return {
        status: "true",
        message: user.verified_educator
          ? `${user.name} is marked as a verified educator.`
          : `${user.name} is no longer marked as a verified educator.`,
        user,
      };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/users/delete",
    tag: "Console",
    summary:
      "Deletes an account as self-deletion does: personal data removed, posts and comments kept " +
      "under 'Deleted user'",
    body: DeleteUserBody,
    response: ConsoleUserDeletedResponse,
    auth: "admin",
    handler: async ({ input, request }) => {
      const { user_id } = await users.deleteUser(request.user, input);
      return { status: "true", message: "The account has been deleted.", user_id };
    },
  });
};
