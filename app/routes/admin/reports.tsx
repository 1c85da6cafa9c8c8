import { Link, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import type { HeldPost, QueueItemStatus, ReportGroup } from "../../../core/moderation/presenter.ts";
import { REPORT_REASONS } from "../../../core/moderation/schema.ts";
import { ConsoleAction } from "../../components/console/ConsoleAction.tsx";
import { ConsoleTable } from "../../components/console/ConsoleTable.tsx";
import { Pager } from "../../components/Pager.tsx";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { formatDate } from "../../lib/format.ts";
import type { Route } from "./+types/reports";
import { pageFromQuery } from "../../../core/list-query.ts";

export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx, "moderator");
  return {
    queue: await ctx.services.moderation.queue(
      user,
      pageFromQuery(new URL(request.url).searchParams.get("page")),
    ),
  };
}

export const meta: Route.MetaFunction = () => [
  { title: "Reports | Console" },
  { name: "robots", content: "noindex" },
];

const TYPE_LABEL: Record<ReportGroup["item_type"], string> = {
  d: "Deal",
  g: "Discussion",
  comment: "Comment",
  user: "Member",
};

const STATUS_LABEL: Record<QueueItemStatus, string> = {
  active: "Public",
  pending: "Waiting for review",
  hidden: "Hidden",
  removed: "Removed",
  deleted: "Deleted",
  suspended: "Suspended",
  missing: "Gone",
};

const reasonLabel = (reason: string) =>
  REPORT_REASONS.find((r) => r.value === reason)?.label ?? reason;

function StatusBadge({ status }: { status: QueueItemStatus }) {
  const tone = status === "active" ? "success" : status === "pending" ? "" : "danger";
  return <span className={`console-badge ${tone}`.trim()}>{STATUS_LABEL[status]}</span>;
}

function ItemCell({ item }: { item: ReportGroup }) {
  return (
    <div className="queue-item">
      <span className="queue-type">{TYPE_LABEL[item.item_type]}</span>{" "}
      {item.link ? <Link to={item.link}>{item.title}</Link> : <span>{item.title}</span>}
      {item.excerpt && <p className="queue-excerpt">{item.excerpt}</p>}
      {item.author && (
        <p className="queue-meta">
          by <Link to={`/profile/${item.author.id}`}>{item.author.name}</Link>
        </p>
      )}
    </div>
  );
}

function ReasonsCell({ item }: { item: ReportGroup }) {
  return (
    <div>
      <strong>{item.reports === 1 ? "1 report" : `${item.reports} reports`}</strong>
      <ul className="queue-reasons">
        {item.reasons.map((r) => (
          <li key={r.reason}>
            {reasonLabel(r.reason)} <span className="queue-count">×{r.count}</span>
          </li>
        ))}
      </ul>
      {item.notes.length > 0 && (
        <ul className="queue-notes" aria-label="Newest notes">
          {item.notes.map((note, i) => (
            <li key={i}>
              “{note.note}” <span className="queue-meta">— {note.reporter_name || "a member"}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function WhenCell({ item }: { item: ReportGroup }) {
  return (
    <span className="queue-meta">
      {formatDate(item.first_reported_at)}
      {item.first_reported_at.slice(0, 10) !== item.last_reported_at.slice(0, 10) && (
        <> – {formatDate(item.last_reported_at)}</>
      )}
    </span>
  );
}

/**
 * Hide (out of public view until decided), Keep / Restore (public, reports closed), Remove
 * (reports closed). A reported member's reports are dismissed here or settled by suspension.
 */
function ReportActions({ item }: { item: ReportGroup }) {
  const target = { item_type: item.item_type, item_id: item.item_id };
  const status = item.item_status;
  if (status === "missing") return null;
  if (item.item_type === "user") {
    return (
      <ConsoleAction
        call="/admin/moderate"
        body={{ ...target, action: "restore" }}
        label="Dismiss reports"
        askReason
      />
    );
  }
  return (
    <div className="queue-actions">
      {status === "active" && (
        <ConsoleAction
          call="/admin/moderate"
          body={{ ...target, action: "hide" }}
          label="Hide"
          askReason
        />
      )}
      {status !== "deleted" && (
        <ConsoleAction
          call="/admin/moderate"
          body={{ ...target, action: "restore" }}
          label={status === "active" ? "Keep" : "Restore"}
          tone="primary"
          askReason
        />
      )}
      {status !== "removed" && (
        <ConsoleAction
          call="/admin/moderate"
          body={{ ...target, action: "remove" }}
          label="Remove"
          tone="danger"
          confirm="Remove this item? Its author and the reporters will be told."
          askReason
        />
      )}
    </div>
  );
}

function HeldActions({ post }: { post: HeldPost }) {
  const target = { item_type: post.post_type, item_id: post.unique_id };
  return (
    <div className="queue-actions">
      <ConsoleAction
        call="/admin/moderate"
        body={{ ...target, action: "restore" }}
        label="Approve"
        tone="primary"
      />
      <ConsoleAction
        call="/admin/moderate"
        body={{ ...target, action: "remove" }}
        label="Remove"
        tone="danger"
        confirm="Remove this post? Its author will be told."
        askReason
      />
    </div>
  );
}

/** The moderation queue: reported items grouped, most reported first; then held posts. */
export default function ReportsQueue() {
  const { queue } = useLoaderData<typeof loader>();
  const { pagination } = queue;
  return (
    <>
      <h1>Reports</h1>
      <section className="console-section" aria-labelledby="reported-heading">
        <h2 id="reported-heading" className="console-section-title">
          Reported items <span className="console-badge">{pagination.total}</span>
        </h2>
        <p className="queue-help">
          Hide takes an item out of public view until you decide. Keep or Restore makes it public
          and closes its reports; Remove takes it down for good. Either way, the reporters and the
          author are told.
        </p>
        <ConsoleTable
          caption="Reported items"
          rows={queue.items}
          rowKey={(item) => `${item.item_type}:${item.item_id}`}
          empty="No open reports. Nothing to review."
          columns={[
            { header: "Item", cell: (item) => <ItemCell item={item} /> },
            { header: "Status", cell: (item) => <StatusBadge status={item.item_status} /> },
            { header: "Reports", cell: (item) => <ReasonsCell item={item} /> },
            { header: "Reported", cell: (item) => <WhenCell item={item} /> },
            { header: "Actions", actions: true, cell: (item) => <ReportActions item={item} /> },
          ]}
        />
        <Pager
          page={pagination.current_page}
          lastPage={pagination.last_page}
          hrefFor={(page) => `/admin/reports?page=${page}`}
          label="Report pages"
        />
      </section>

      <section className="console-section" aria-labelledby="held-heading">
        <h2 id="held-heading" className="console-section-title">
          Held for review <span className="console-badge">{queue.held_total}</span>
        </h2>
        <p className="queue-help">
          New members&apos; first posts wait here when Settings holds them. Only their authors see
          them until you approve.
        </p>
        <ConsoleTable
          caption="Posts held for review"
          rows={queue.held_posts}
          rowKey={(post) => post.unique_id}
          empty="No posts are waiting for review."
          columns={[
            {
              header: "Post",
              cell: (post) => (
                <div className="queue-item">
                  <span className="queue-type">
                    {post.post_type === "d" ? "Deal" : "Discussion"}
                  </span>{" "}
                  <Link to={post.link}>{post.title}</Link>
                  {post.excerpt && <p className="queue-excerpt">{post.excerpt}</p>}
                </div>
              ),
            },
            {
              header: "Author",
              cell: (post) =>
                post.author ? (
                  <span>
                    <Link to={`/profile/${post.author.id}`}>{post.author.name}</Link>
                    {post.author.joined_at && (
                      <span className="queue-meta">
                        {" "}
                        joined {formatDate(post.author.joined_at)}
                      </span>
                    )}
                  </span>
                ) : (
                  "Former member"
                ),
            },
            {
              header: "Posted",
              cell: (post) => <span className="queue-meta">{formatDate(post.created_at)}</span>,
            },
            { header: "Actions", actions: true, cell: (post) => <HeldActions post={post} /> },
          ]}
        />
      </section>
    </>
  );
}
