import { Link, useLoaderData, useLocation } from "react-router";
import { requestContext } from "#app-context";
import type { ConsolePost } from "../../../core/posts/console-presenter.ts";
import { POST_SORTS, POST_STATUSES, PostListQuery } from "../../../core/posts/console-schema.ts";
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
import { consolePageHref, readConsoleQuery } from "../../lib/console-query.ts";
import { formatDate } from "../../lib/format.ts";
import type { Route } from "./+types/posts";

export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  const { query, ignored } = readConsoleQuery(PostListQuery, request.url);
  const [list, options] = await Promise.all([
    ctx.services.consolePosts.list(user, query),
    ctx.services.submissions.options(),
  ]);
  return {
    list,
    query,
    ignored,
    stores: options.stores,
    categories: options.categories,
    isAdmin: user.role === "admin",
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Posts – Console" }];

const STATUS_LABELS: Record<(typeof POST_STATUSES)[number], string> = {
  active: "Live",
  pending: "Held for review",
  hidden: "Hidden",
  removed: "Removed",
};

const SORT_LABELS: Record<(typeof POST_SORTS)[number], string> = {
  newest: "Newest",
  oldest: "Oldest",
  most_liked: "Most liked",
  most_comments: "Most comments",
  hottest: "Hottest",
};

const KIND_LABELS = { deal: "Deal", coupon: "Coupon", discussion: "Discussion" } as const;

function count(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** The actions of one row: edit, feature, hide or restore, expire, delete. */
function PostActions({ post, isAdmin }: { post: ConsolePost; isAdmin: boolean }) {
  const one = { ids: [post.unique_id] };
  return (
    <div className="console-row-actions">
      <Link
        className="btn btn-sm console-btn-plain"
        to={`/admin/posts/${post.unique_id}/edit`}
        aria-label={`Edit “${post.title}”`}
      >
        Edit
      </Link>
      <ConsoleAction
        call="/admin/posts/bulk"
        body={{ ...one, action: post.is_featured ? "unfeature" : "feature" }}
        label={post.is_featured ? "Unfeature" : "Feature"}
      />
      {post.status === "active" ? (
        <ConsoleAction
          call="/admin/posts/bulk"
          body={{ ...one, action: "hide" }}
          label="Hide"
          askReason
          confirm={`Hide “${post.title}”?`}
        />
      ) : (
        <ConsoleAction
          call="/admin/posts/bulk"
          body={{ ...one, action: "restore" }}
          label={post.status === "pending" ? "Approve" : "Restore"}
          tone="primary"
        />
      )}
      {post.post_type === "d" && !post.is_expired && (
        <ConsoleAction
          call="/admin/posts/bulk"
          body={{ ...one, action: "expire" }}
          label="Mark expired"
          confirm={`Mark “${post.title}” as expired now?`}
        />
      )}
      {isAdmin && (
        <ConsoleAction
          call="/admin/posts/delete"
          body={one}
          label="Delete"
          tone="danger"
          askReason
          confirm={`Delete “${post.title}” for good? Its comments, likes and image go with it.`}
        />
      )}
    </div>
  );
}

/** Every deal and discussion, in every state: filter, sort, act on one or on many. */
export default function ConsolePosts() {
  const { list, query, ignored, stores, categories, isAdmin } = useLoaderData<typeof loader>();
  const location = useLocation();
  const rows = useRowSelection(
    list.posts,
    (post) => post.unique_id,
    (post) => post.title,
  );

  const columns: ConsoleColumn<ConsolePost>[] = [
    {
      header: "Post",
      cell: (post) => (
        <>
          <Link to={post.path}>{post.title}</Link>
          <span className="console-meta">
            {KIND_LABELS[post.kind]} · {post.unique_id}
          </span>
          {post.moderation_reason && (
            <span className="console-meta">Reason: {post.moderation_reason}</span>
          )}
        </>
      ),
    },
    { header: "Store", cell: (post) => post.store?.title ?? "—" },
    {
      header: "Author",
      cell: (post) =>
        post.author ? <Link to={`/profile/${post.author.id}`}>{post.author.name}</Link> : "—",
    },
    {
      header: "Status",
      cell: (post) => (
        <>
          <StatusBadge status={post.status} label={STATUS_LABELS[post.status]} />
          {post.is_featured && <StatusBadge status="featured" label="Featured" />}
          {post.is_expired && <StatusBadge status="expired" label="Expired" />}
        </>
      ),
    },
    {
      header: "Created",
      cell: (post) => <time dateTime={post.created_at}>{formatDate(post.created_at)}</time>,
    },
    {
      header: "Counts",
      cell: (post) => (
        <ul className="console-counts">
          <li>{count(post.likes, "like", "likes")}</li>
          <li>{count(post.comments, "comment", "comments")}</li>
          <li>{count(post.views, "view", "views")}</li>
        </ul>
      ),
    },
    {
      header: "Actions",
      actions: true,
      cell: (post) => <PostActions post={post} isAdmin={isAdmin} />,
    },
  ];

  const choices: BulkChoice[] = [
    { value: "feature", label: "Feature" },
    { value: "unfeature", label: "Unfeature" },
    { value: "hide", label: "Hide" },
    { value: "restore", label: "Restore (or approve)" },
    { value: "remove", label: "Remove", confirm: "Remove {n}? They leave the site." },
    { value: "expire", label: "Mark expired", confirm: "Mark {n} as expired now?" },
    ...(isAdmin
      ? [
          {
            value: "delete",
            label: "Delete for good",
            call: "/admin/posts/delete" as const,
            confirm: "Delete {n} for good? Their comments, likes and images go with them.",
          },
        ]
      : []),
  ];

  return (
    <>
      <h1>Posts</h1>
      <ConsoleFilters label="Filter posts">
        <FilterField
          name="q"
          label="Search"
          type="search"
          value={query.q}
          placeholder="Title or id"
        />
        <FilterField
          name="status"
          label="Status"
          value={query.status}
          options={POST_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
        />
        <FilterField
          name="type"
          label="Type"
          value={query.type}
          options={[
            { value: "d", label: "Deals and coupons" },
            { value: "g", label: "Discussions" },
          ]}
        />
        <FilterField
          name="store_id"
          label="Store"
          value={query.store_id}
          options={stores.map((s) => ({ value: String(s.id), label: s.title }))}
        />
        <FilterField
          name="category_id"
          label="Category"
          value={query.category_id}
          options={categories.map((c) => ({ value: String(c.id), label: c.title }))}
        />
        <FilterField
          name="author"
          label="Author"
          value={query.author}
          placeholder="Name, email or id"
        />
        <FilterField
          name="sort"
          label="Sort by"
          value={query.sort === "newest" ? undefined : query.sort}
          any={SORT_LABELS.newest}
          options={POST_SORTS.filter((s) => s !== "newest").map((s) => ({
            value: s,
            label: SORT_LABELS[s],
          }))}
        />
      </ConsoleFilters>
      {ignored.length > 0 && (
        <p className="alert alert-danger">
          Some filters were not understood and were left out: {ignored.join(", ")}.
        </p>
      )}
      <p className="console-note" aria-live="polite">
        {count(list.total, "post", "posts")}
        {list.lastPage > 1 && ` · page ${list.currentPage} of ${list.lastPage}`}
      </p>
      <BulkBar
        selected={rows.selected}
        noun={["post", "posts"]}
        call="/admin/posts/bulk"
        choices={choices}
        onDone={rows.clear}
      />
      <ConsoleTable
        caption="Posts"
        columns={columns}
        rows={list.posts}
        rowKey={(post) => post.unique_id}
        empty={location.search ? "No posts match these filters." : "There are no posts yet."}
        selection={rows.selection}
      />
      <Pager
        page={list.currentPage}
        lastPage={list.lastPage}
        hrefFor={(page) => consolePageHref(location.search, page)}
        label="Posts pages"
      />
    </>
  );
}
