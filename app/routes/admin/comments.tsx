import { Link, useLoaderData, useLocation } from "react-router";
import { requestContext } from "#app-context";
import type { ConsoleComment } from "../../../core/posts/comments/console-presenter.ts";
import { COMMENT_STATES, CommentListQuery } from "../../../core/posts/comments/console-schema.ts";
import { Pager } from "../../components/Pager.tsx";
import { BulkBar, type BulkChoice } from "../../components/console/BulkBar.tsx";
import { ConsoleAction } from "../../components/console/ConsoleAction.tsx";
import { ConsoleFilters, FilterField } from "../../components/console/ConsoleFilters.tsx";
import {
  ConsoleTable,
  useRowSelection,
  type ConsoleColumn,
} from "../../components/console/ConsoleTable.tsx";
import { StatusBadge } from "../../components/console/StatusBadge.tsx";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { consolePageHref, formatConsoleTime, readConsoleQuery } from "../../lib/console-query.ts";
import type { Route } from "./+types/comments";

export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  const { query, ignored } = readConsoleQuery(CommentListQuery, request.url);
  const list = await ctx.services.consoleComments.list(user, query);
  return { list, query, ignored, isAdmin: user.role === "admin" };
}

export const meta: Route.MetaFunction = () => [{ title: "Comments – Console" }];

const STATE_LABELS: Record<(typeof COMMENT_STATES)[number], string> = {
  active: "Live",
  hidden: "Hidden",
  removed: "Removed",
  deleted: "Deleted",
};

function CommentActions({ comment, isAdmin }: { comment: ConsoleComment; isAdmin: boolean }) {
  const one = { ids: [comment.id] };
  const name = `comment ${comment.id}`;
  return (
    <div className="console-row-actions">
      {!comment.is_deleted &&
        (comment.status === "active" ? (
          <ConsoleAction
            call="/admin/comments/bulk"
            body={{ ...one, action: "hide" }}
            label="Hide"
            askReason
            confirm={`Hide ${name}?`}
          />
        ) : (
          <ConsoleAction
            call="/admin/comments/bulk"
            body={{ ...one, action: "restore" }}
            label="Restore"
            tone="primary"
          />
        ))}
      {isAdmin && (
        <ConsoleAction
          call="/admin/comments/delete"
          body={one}
          label="Delete"
          tone="danger"
          askReason
          confirm={
            comment.replies > 0
              ? `Delete ${name} for good? Its text and author go; its replies stay under “This comment was deleted.”`
              : `Delete ${name} for good?`
          }
        />
      )}
    </div>
  );
}

/** Every comment and reply: search, hide or restore, delete. */
export default function ConsoleComments() {
  const { list, query, ignored, isAdmin } = useLoaderData<typeof loader>();
  const location = useLocation();
  const rows = useRowSelection(
    list.comments,
    (comment) => comment.id,
    (comment) => `comment ${comment.id}`,
  );

  const columns: ConsoleColumn<ConsoleComment>[] = [
    {
      header: "Comment",
      cell: (comment) => (
        <>
          <span className="console-comment-text">
            {comment.is_deleted && !comment.text ? "(deleted; kept for its replies)" : comment.text}
          </span>
          <span className="console-meta">
            #{comment.id}
            {comment.parent_id !== null && ` · reply to #${comment.parent_id}`}
            {comment.replies > 0 &&
              ` · ${comment.replies} ${comment.replies === 1 ? "reply" : "replies"}`}
          </span>
        </>
      ),
    },
    {
      header: "Post",
      cell: (comment) => <Link to={comment.post.path}>{comment.post.title}</Link>,
    },
    {
      header: "Author",
      cell: (comment) =>
        comment.author ? (
          <Link to={`/profile/${comment.author.id}`}>{comment.author.name}</Link>
        ) : (
          "—"
        ),
    },
    {
      header: "Status",
      cell: (comment) =>
        comment.is_deleted ? (
          <StatusBadge status="deleted" label={STATE_LABELS.deleted} />
        ) : (
          <StatusBadge status={comment.status} label={STATE_LABELS[comment.status]} />
        ),
    },
    {
      header: "Written",
      cell: (comment) => (
        <time dateTime={comment.created_at}>{formatConsoleTime(comment.created_at)}</time>
      ),
    },
    {
      header: "Actions",
      actions: true,
      cell: (comment) => <CommentActions comment={comment} isAdmin={isAdmin} />,
    },
  ];

  const choices: BulkChoice[] = [
    { value: "hide", label: "Hide" },
    { value: "restore", label: "Restore" },
    { value: "remove", label: "Remove", confirm: "Remove {n}?" },
    ...(isAdmin
      ? [
          {
            value: "delete",
            label: "Delete for good",
            call: "/admin/comments/delete" as const,
            confirm:
              "Delete {n} for good? Comments with replies stay as “This comment was deleted.”",
          },
        ]
      : []),
  ];

  return (
    <>
      <h1>Comments</h1>
      <ConsoleFilters label="Filter comments">
        <FilterField name="q" label="Words" type="search" value={query.q} />
        <FilterField
          name="author"
          label="Author"
          value={query.author}
          placeholder="Name, email or id"
        />
        <FilterField name="post" label="Post" value={query.post} placeholder="Title or id" />
        <FilterField
          name="status"
          label="Status"
          value={query.status}
          options={COMMENT_STATES.map((s) => ({ value: s, label: STATE_LABELS[s] }))}
        />
      </ConsoleFilters>
      {ignored.length > 0 && (
        <p className="alert alert-danger">
          Some filters were not understood and were left out: {ignored.join(", ")}.
        </p>
      )}
      <p className="console-note" aria-live="polite">
        {list.total} {list.total === 1 ? "comment" : "comments"}
        {list.lastPage > 1 && ` · page ${list.currentPage} of ${list.lastPage}`}
      </p>
      <BulkBar
        selected={rows.selected}
        noun={["comment", "comments"]}
        call="/admin/comments/bulk"
        choices={choices}
        onDone={rows.clear}
      />
      <ConsoleTable
        caption="Comments"
        columns={columns}
        rows={list.comments}
        rowKey={(comment) => comment.id}
        empty={location.search ? "No comments match these filters." : "There are no comments yet."}
        selection={rows.selection}
      />
      <Pager
        page={list.currentPage}
        lastPage={list.lastPage}
        hrefFor={(page) => consolePageHref(location.search, page)}
        label="Comments pages"
      />
    </>
  );
}
