import { useState } from "react";
import { Link, redirect, useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import { Pager } from "../components/Pager.tsx";
import { apiCall } from "../lib/api.ts";
import { messageOf } from "../lib/api-form.ts";
import { pageMeta } from "../lib/meta.ts";
import { timeAgo } from "../lib/time-ago.ts";
import "../styles/notifications.css";
import type { Route } from "./+types/notifications";
import { pageFromQuery } from "../../core/list-query.ts";

/** The signed-in member's notifications; a visitor goes to /login. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  return {
    ...(await services.notifications.list(
      user,
      pageFromQuery(new URL(request.url).searchParams.get("page")),
    )),
    now: new Date().toISOString(),
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Notifications", path: "/user/notifications", noindex: true });

/** Marks one notification, or all of them, read through the API, then reloads the list. */
function useMarkRead() {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<number | "all" | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function mark(id?: number) {
    setBusy(id ?? "all");
    setError(null);
    const result = await apiCall("/notifications_read", id === undefined ? {} : { id });
    if (result.ok) await revalidator.revalidate();
    else setError(messageOf(result.data, "That did not work. Please try again."));
    setBusy(null);
  }
  return { busy, error, mark };
}

export default function Notifications() {
  const { notifications, unread, pagination, now } = useLoaderData<typeof loader>();
  const { busy, error, mark } = useMarkRead();
  const at = new Date(now);
  return (
    <div className="container notifications-page">
      <div className="notifications-head">
        <h1 className="page-title">Notifications</h1>
        <p className="notifications-unread" role="status">
          {unread === 0 ? "Nothing unread." : unread === 1 ? "1 unread" : `${unread} unread`}
        </p>
        {unread > 0 && (
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => void mark()}
            disabled={busy !== null}
            aria-busy={busy === "all" || undefined}
          >
            {busy === "all" ? "Working…" : "Mark all as read"}
          </button>
        )}
      </div>
      <p className="notifications-settings">
        <Link to="/user/settings/email">Email settings</Link>: choose which of these are also mailed
        to you.
      </p>
      {error && (
        <p className="alert alert-danger" role="alert">
          {error}
        </p>
      )}
      {notifications.length === 0 ? (
        <p className="card notifications-empty">
          You have no notifications yet. Replies to your comments, comments and likes on your posts,
          new followers, alert matches and moderators&apos; decisions will show here.
        </p>
      ) : (
        <ol className="notifications-list">
          {notifications.map((n) => {
            const created = new Date(n.created_at);
            return (
              <li key={n.id} className={n.is_read ? "notification" : "notification unread"}>
                <p className="notification-message">
                  {!n.is_read && <span className="visually-hidden">Unread: </span>}
                  {n.message}
                </p>
                <p className="notification-meta">
                  <time dateTime={n.created_at} title={created.toUTCString()}>
                    {timeAgo(created, at)}
                  </time>
                  {n.link && <Link to={n.link}>View</Link>}
                  {!n.is_read && (
                    <button
                      type="button"
                      className="btn-link"
                      onClick={() => void mark(n.id)}
                      disabled={busy !== null}
                    >
                      {busy === n.id ? "Working…" : "Mark as read"}
                    </button>
                  )}
                </p>
              </li>
            );
          })}
        </ol>
      )}
      <Pager
        page={pagination.current_page}
        lastPage={pagination.last_page}
        hrefFor={(page) => `/user/notifications?page=${page}`}
        label="Notification pages"
      />
    </div>
  );
}
