import { Form, Link, useLoaderData, useSearchParams } from "react-router";
import { requestContext } from "#app-context";
import { hasRole } from "../../../core/auth/policy.ts";
import { formatSuspensionEnd } from "../../../core/auth/suspension.ts";
import type { ConsoleUser } from "../../../core/people/roles/presenter.ts";
import { USER_ROLES, USER_STATUSES, UsersQuery } from "../../../core/people/roles/schema.ts";
import { RestrictionAction, dayIn } from "../../components/console/RestrictionAction.tsx";
import { ConsoleAction } from "../../components/console/ConsoleAction.tsx";
import { ConsoleTable, type ConsoleColumn } from "../../components/console/ConsoleTable.tsx";
import { Pager, pageHref } from "../../components/Pager.tsx";
import { apiCall } from "../../lib/api.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { formatDate } from "../../lib/format.ts";
import type { Route } from "./+types/users";

export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const viewer = requireConsoleUser(ctx, "moderator");
  const query = UsersQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const list = await ctx.services.users.list(viewer, query);
  return {
    ...list,
    query,
    viewer: { id: viewer.id, isAdmin: hasRole(viewer, "admin") },
  };
}

export const meta: Route.MetaFunction = () => [
  { title: "Users · Console" },
  { name: "robots", content: "noindex" },
];

const ROLE_LABELS = { member: "Member", moderator: "Moderator", admin: "Administrator" } as const;
const STATUS_LABELS = { active: "Active", suspended: "Suspended", deleted: "Deleted" } as const;

function StatusCell({ user }: { user: ConsoleUser }) {
  if (user.status === "active") return <span className="console-badge success">Active</span>;
  if (user.status === "deleted") return <span className="console-badge">Deleted</span>;
  return (
    <>
      <span className="console-badge danger">
        {user.suspended_until
          ? `Suspended until ${formatSuspensionEnd(new Date(user.suspended_until))}`
          : "Suspended until lifted"}
      </span>
      {user.suspension_reason && <p className="console-note">{user.suspension_reason}</p>}
    </>
  );
}

/** Suspend: a reason (shown to the person when they try to sign in) and an optional end date. */
function SuspendAction({ user }: { user: ConsoleUser }) {
  return (
    <RestrictionAction
      label="Suspend"
      title={`Suspend ${user.name}?`}
      explanation="They are signed out everywhere at once and cannot sign in until the suspension ends."
      untilHint="optional; empty: until lifted"
      untilRequired={false}
      // The first day a suspension may end: tomorrow (UTC), as the server checks.
      untilMin={dayIn(1)}
      reasonRequired="Please give a reason: the person is shown it when they try to sign in."
      send={(reason, until) => apiCall("/admin/suspend", { user_id: user.id, reason, until })}
    />
  );
}

function UserActions({
  user,
  viewer,
}: {
  user: ConsoleUser;
  viewer: { id: number; isAdmin: boolean };
}) {
  if (user.status === "deleted") return null;
  const self = user.id === viewer.id;
  const mayModerate = !self && (user.role !== "admin" || viewer.isAdmin);
  return (
    <div className="console-row-actions">
      {viewer.isAdmin &&
        USER_ROLES.filter((role) => role !== user.role).map((role) => (
          <ConsoleAction
            key={role}
            call="/admin/users/role"
            body={{ user_id: user.id, role }}
            label={`Make ${ROLE_LABELS[role].toLowerCase()}`}
            confirm={`Make ${user.name} ${role === "admin" ? "an administrator" : `a ${role}`}?`}
          />
        ))}
      {mayModerate &&
        (user.status === "suspended" ? (
          <ConsoleAction
            call="/admin/unsuspend"
            body={{ user_id: user.id }}
            label="Unsuspend"
            confirm={`Lift ${user.name}'s suspension?`}
          />
        ) : (
          <SuspendAction user={user} />
        ))}
      <ConsoleAction
        call="/admin/users/verified_educator"
        body={{ user_id: user.id, verified: !user.verified_educator }}
        label={user.verified_educator ? "Unmark verified educator" : "Mark verified educator"}
      />
      {viewer.isAdmin && !self && (
        <ConsoleAction
          call="/admin/users/delete"
          body={{ user_id: user.id }}
          label="Delete"
          tone="danger"
          askReason
          confirm={`Delete ${user.name}'s account? Their personal data is removed for good; their posts and comments stay, under "Deleted user".`}
        />
      )}
    </div>
  );
}

export default function ConsoleUsers() {
  const { users, page, last_page, total, query, viewer } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const columns: ConsoleColumn<ConsoleUser>[] = [
    {
      header: "User",
      cell: (user) => (
        <>
          <strong>
            <Link to={`/admin/users/${user.id}`}>{user.name}</Link>
          </strong>{" "}
          <span className="console-note">#{user.id}</span>
          {user.email && <div className="console-note">{user.email}</div>}
          {user.verified_educator && (
            <span className="console-badge success">Verified educator</span>
          )}
        </>
      ),
    },
    { header: "Role", cell: (user) => ROLE_LABELS[user.role] },
    {
      header: "Joined",
      cell: (user) => <span className="console-nowrap">{formatDate(user.joined)}</span>,
    },
    { header: "Posts", cell: (user) => user.posts_count },
    { header: "Status", cell: (user) => <StatusCell user={user} /> },
    {
      header: "Actions",
      actions: true,
      cell: (user) => <UserActions user={user} viewer={viewer} />,
    },
  ];

  return (
    <>
      <h1>Users</h1>
      <Form method="get" className="console-toolbar" aria-label="Find users">
        <div className="form-field">
          <label htmlFor="users-q">Name, email or id</label>
          <input id="users-q" name="q" type="search" defaultValue={query.q} />
        </div>
        <div className="form-field">
          <label htmlFor="users-role">Role</label>
          <select id="users-role" name="role" defaultValue={query.role}>
            <option value="">Any role</option>
            {USER_ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor="users-status">Status</label>
          <select id="users-status" name="status" defaultValue={query.status}>
            <option value="">Any status</option>
            {USER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary">
          Filter
        </button>
      </Form>
      <p className="console-note" aria-live="polite">
        {total === 1 ? "1 user" : `${total} users`}
      </p>
      <ConsoleTable
        caption="Users"
        columns={columns}
        rows={users}
        rowKey={(user) => user.id}
        empty="No user matches these filters."
      />
      <Pager
        page={page}
        lastPage={last_page}
        hrefFor={(n) => pageHref(params, n)}
        label="Users pages"
      />
    </>
  );
}
