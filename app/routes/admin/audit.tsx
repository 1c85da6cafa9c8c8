import { Link, useLoaderData, useLocation } from "react-router";
import { requestContext } from "#app-context";
import type { PresentedAuditEntry } from "../../../core/audit/presenter.ts";
import { AuditQuery } from "../../../core/audit/schema.ts";
import { Pager } from "../../components/Pager.tsx";
import { AuditChanges } from "../../components/console/AuditChanges.tsx";
import { ConsoleFilters, FilterField } from "../../components/console/ConsoleFilters.tsx";
import { ConsoleTable, type ConsoleColumn } from "../../components/console/ConsoleTable.tsx";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { consolePageHref, formatConsoleTime, readConsoleQuery } from "../../lib/console-query.ts";
import type { Route } from "./+types/audit";

export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  const { query, ignored } = readConsoleQuery(AuditQuery, request.url);
  const [list, vocabulary] = await Promise.all([
    ctx.services.audit.list(user, query),
    ctx.services.audit.vocabulary(user),
  ]);
  return { list, vocabulary, query, ignored };
}

export const meta: Route.MetaFunction = () => [{ title: "Audit log – Console" }];

/** Item types as people say them. */
const ITEM_TYPES: Record<string, string> = {
  d: "Deal",
  g: "Discussion",
  comment: "Comment",
  user: "User",
  store: "Store",
  category: "Category",
  undeliverable_address: "Undeliverable address",
};

/** Each area ("post: every action") followed by its actions, and the one in the URL if unknown. */
function actionChoices(actions: string[], current: string | undefined) {
  const known = current && !actions.includes(current) && current.includes(".") ? [current] : [];
  const all = [...actions, ...known].sort();
  const choices: { value: string; label: string }[] = [];
  for (const action of all) {
    const area = action.split(".")[0]!;
    if (!choices.some((choice) => choice.value === area)) {
      choices.push({ value: area, label: `${area}: every action` });
    }
    choices.push({ value: action, label: action });
  }
  return choices;
}

function ItemCell({ entry }: { entry: PresentedAuditEntry }) {
  if (!entry.item_type) return <>—</>;
  const kind = ITEM_TYPES[entry.item_type] ?? entry.item_type;
  const name = entry.item_label || `${kind} ${entry.item_id}`;
  return (
    <>
      {entry.item_link ? <Link to={entry.item_link}>{name}</Link> : name}
      <span className="console-meta">
        {kind} {entry.item_id}
        {" · "}
        <Link
          to={`?item_type=${encodeURIComponent(entry.item_type)}&item_id=${encodeURIComponent(entry.item_id)}`}
          aria-label={`History of ${kind.toLowerCase()} ${entry.item_id}`}
        >
          history
        </Link>
      </span>
    </>
  );
}

/** Every console action, newest first: who did what to which item, when, why, and what changed. */
export default function AuditLog() {
  const { list, vocabulary, query, ignored } = useLoaderData<typeof loader>();
  const location = useLocation();
  const columns: ConsoleColumn<PresentedAuditEntry>[] = [
    {
      header: "When",
      cell: (entry) => (
        <time dateTime={entry.created_at}>{formatConsoleTime(entry.created_at)}</time>
      ),
    },
    {
      header: "Who",
      cell: (entry) =>
        entry.actor_id ? (
          <Link to={`?actor=${entry.actor_id}`} aria-label={`Actions of ${entry.actor_name}`}>
            {entry.actor_name}
          </Link>
        ) : (
          entry.actor_name || "—"
        ),
    },
    { header: "Action", cell: (entry) => <code>{entry.action}</code> },
    { header: "Item", cell: (entry) => <ItemCell entry={entry} /> },
    { header: "Reason", cell: (entry) => entry.reason || "—" },
    { header: "Changes", cell: (entry) => <AuditChanges changes={entry.changes} /> },
  ];
  return (
    <>
      <h1>Audit log</h1>
      <ConsoleFilters label="Filter the audit log">
        <FilterField name="actor" label="Who" value={query.actor} placeholder="Name or id" />
        <FilterField
          name="action"
          label="Action"
          value={query.action}
          options={actionChoices(vocabulary.actions, query.action)}
        />
        <FilterField
          name="item_type"
          label="Item type"
          value={query.item_type}
          options={vocabulary.itemTypes.map((type) => ({
            value: type,
            label: ITEM_TYPES[type] ?? type,
          }))}
        />
        <FilterField name="item_id" label="Item id" value={query.item_id} />
      </ConsoleFilters>
      {ignored.length > 0 && (
        <p className="alert alert-danger">
          Some filters were not understood and were left out: {ignored.join(", ")}.
        </p>
      )}
      <p className="console-note" aria-live="polite">
        {list.total} {list.total === 1 ? "entry" : "entries"}
        {list.lastPage > 1 && ` · page ${list.currentPage} of ${list.lastPage}`}
      </p>
      <ConsoleTable
        caption="Audit log entries, newest first"
        columns={columns}
        rows={list.entries}
        rowKey={(entry) => entry.id}
        empty={location.search ? "No entries match these filters." : "The audit log is empty."}
      />
      <Pager
        page={list.currentPage}
        lastPage={list.lastPage}
        hrefFor={(page) => consolePageHref(location.search, page)}
        label="Audit log pages"
      />
    </>
  );
}
