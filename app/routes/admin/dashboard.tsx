import { Link, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { DailyChart } from "../../components/console/DailyChart.tsx";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { formatConsoleTime } from "../../lib/console-query.ts";
import type { Route } from "./+types/dashboard";

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  return ctx.services.dashboard.figures(user);
}

export const meta: Route.MetaFunction = () => [{ title: "Dashboard – Console" }];

const RECENT_ROWS = [
  ["users", "New users"],
  ["deals", "Deals"],
  ["discussions", "Discussions"],
  ["comments", "Comments"],
  ["reports", "Reports"],
  ["contact_messages", "Contact messages"],
] as const;

/** The console's first page: what waits for staff, what happened lately, 30 days at a glance. */
export default function Dashboard() {
  const figures = useLoaderData<typeof loader>();
  const { queues } = figures;
  const waiting = [
    {
      label: "Open reports",
      value: queues.open_reports,
      note: `on ${queues.reported_items} ${queues.reported_items === 1 ? "item" : "items"}`,
      to: "/admin/reports",
    },
    { label: "Held posts", value: queues.held_posts, to: "/admin/posts?status=pending" },
    { label: "Hidden posts", value: queues.hidden_posts, to: "/admin/posts?status=hidden" },
    {
      label: "Hidden comments",
      value: queues.hidden_comments,
      to: "/admin/comments?status=hidden",
    },
    { label: "Open messages", value: queues.open_messages, to: "/admin/messages" },
  ];
  return (
    <>
      <h1>Dashboard</h1>
      <section className="console-section" aria-labelledby="queues-heading">
        <h2 id="queues-heading">Waiting for review</h2>
        <ul className="console-stats">
          {waiting.map((item) => (
            <li key={item.label} className="console-stat">
              <Link to={item.to}>
                <strong>{item.value}</strong> {item.label}
              </Link>
              {item.note && <span className="console-stat-note"> {item.note}</span>}
            </li>
          ))}
        </ul>
      </section>
      <section className="console-section" aria-labelledby="recent-heading">
        <h2 id="recent-heading">New lately</h2>
        <div className="console-table-wrap">
          <table className="console-numbers">
            <caption className="visually-hidden">
              New users, posts, comments, reports and messages in the last 24 hours and 7 days
            </caption>
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">Last 24 hours</th>
                <th scope="col">Last 7 days</th>
              </tr>
            </thead>
            <tbody>
              {RECENT_ROWS.map(([key, label]) => (
                <tr key={key}>
                  <th scope="row">{label}</th>
                  <td>{figures.recent[key].last_24h}</td>
                  <td>{figures.recent[key].last_7d}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="console-section" aria-labelledby="chart-heading">
        <h2 id="chart-heading">Posts and sign-ups, last 30 days</h2>
        <DailyChart points={figures.daily} />
        <p className="console-note">As of {formatConsoleTime(figures.generated_at)}.</p>
      </section>
    </>
  );
}
