import { useId } from "react";
import { formatDate } from "../../lib/format.ts";

export interface DailyPoint {
  /** YYYY-MM-DD (UTC). */
  day: string;
  posts: number;
  signups: number;
}

const WIDTH = 600;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 36 };

/** A round top for the y axis: 1, 2, 5, 10, 20, 50… at least `max`. */
export function niceMax(max: number): number {
  if (max <= 1) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  for (const factor of [1, 2, 5, 10]) if (factor * step >= max) return factor * step;
  return 10 * step;
}

const shortDay = (day: string) => formatDate(`${day}T00:00:00Z`).replace(/, \d{4}$/, "");

function sum(points: DailyPoint[], key: "posts" | "signups") {
  return points.reduce((total, point) => total + point[key], 0);
}

/**
 * Posts and sign-ups per day as a bar chart drawn on the server (plain SVG, nothing to load). For
 * screen readers the picture is one image with a title and a summary; the numbers themselves are
 * in a table below it.
 */
export function DailyChart({ points }: { points: DailyPoint[] }) {
  const id = useId();
  const top = niceMax(Math.max(0, ...points.map((p) => Math.max(p.posts, p.signups))));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, points.length);
  const bar = Math.max(1, slot / 2 - 1);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const first = points[0]?.day;
  const last = points.at(-1)?.day;
  const summary =
    first && last
      ? `From ${shortDay(first)} to ${shortDay(last)}: ${sum(points, "posts")} posts and ${sum(points, "signups")} sign-ups.`
      : "No days to show.";
  const ticks = [0, top / 2, top];
  const labelled = new Set([0, Math.floor((points.length - 1) / 2), points.length - 1]);

  return (
    <figure className="console-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-title`}>Posts and sign-ups per day, last {points.length} days</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {ticks.map((tick) => (
          <g key={tick} className="console-chart-grid">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end">
              {Number.isInteger(tick) ? tick : tick.toFixed(1)}
            </text>
          </g>
        ))}
        {points.map((point, i) => {
          const x = PAD.left + i * slot;
          return (
            <g key={point.day}>
              <rect
                className="console-chart-posts"
                x={x + 1}
                y={y(point.posts)}
                width={bar}
                height={Math.max(0, y(0) - y(point.posts))}
              />
              <rect
                className="console-chart-signups"
                x={x + 1 + bar}
                y={y(point.signups)}
                width={bar}
                height={Math.max(0, y(0) - y(point.signups))}
              />
              {labelled.has(i) && (
                <text
                  className="console-chart-day"
                  x={x + slot / 2}
                  y={HEIGHT - 8}
                  textAnchor={i === 0 ? "start" : i === points.length - 1 ? "end" : "middle"}
                >
                  {shortDay(point.day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="console-chart-legend">
        <span>
          <span className="console-chart-key console-chart-posts" aria-hidden="true" /> Posts
        </span>
        <span>
          <span className="console-chart-key console-chart-signups" aria-hidden="true" /> Sign-ups
        </span>
      </figcaption>
      <details className="console-chart-numbers">
        <summary>The numbers, day by day</summary>
        <div className="console-table-wrap">
          <table className="console-numbers">
            <caption className="visually-hidden">Posts and sign-ups per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Posts</th>
                <th scope="col">Sign-ups</th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.day}>
                  <th scope="row">{formatDate(`${point.day}T00:00:00Z`)}</th>
                  <td>{point.posts}</td>
                  <td>{point.signups}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
