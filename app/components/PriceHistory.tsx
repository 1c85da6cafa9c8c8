import { useId } from "react";
import type { PostDetails } from "../../core/posts/service.ts";
import type { PricePoint } from "../../core/posts/prices/presenter.ts";
import { formatDate, formatPrice } from "../lib/format.ts";
import { LowestPriceBadge } from "./LowestPriceBadge.tsx";

/**
 * A deal page's price history (record 0040; core/posts/prices): under the price, the badge and what the
 * product last cost here; below the deal, a chart of every price posted for the product, drawn on
 * the server as SVG (no script, no chart library), with a table of the same points for screen
 * readers. The poster's list price stays as the spec shows it; these come from real postings.
 */

type Details = Pick<PostDetails, "product_details" | "price_history">;

/** The badge and "Was $X here on <date>", beside the deal's price. */
export function PriceHistoryNote({ details }: { details: Details }) {
  const post = details.product_details;
  const previous = details.price_history.previous;
  const showPrevious = previous !== null && post.price !== null && previous.price !== post.price;
  if (!showPrevious && !(post.lowest_in_90d && !post.is_expired)) return null;
  return (
    <p className="price-history-note">
      <LowestPriceBadge deal={post} />
      {showPrevious && (
        <span className={previous.price > post.price! ? "price-was higher" : "price-was lower"}>
          Was {formatPrice(previous.price, post.currency)} here on{" "}
          <time dateTime={previous.date}>{formatDate(previous.date)}</time>
        </span>
      )}
    </p>
  );
}

const WIDTH = 360;
const HEIGHT = 190;
const PAD = { top: 16, right: 12, bottom: 32, left: 70 };

/** Where each point goes: time along, price up; a flat or single-moment history stays centred. */
function layout(points: PricePoint[]) {
  const times = points.map((p) => Date.parse(p.date));
  const prices = points.map((p) => p.price);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  let [low, high] = [Math.min(...prices), Math.max(...prices)];
  if (low === high) [low, high] = [low * 0.9, high * 1.1 || 1];
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (time: number, i: number) =>
    PAD.left +
    (t1 === t0 ? (innerW * (i + 0.5)) / points.length : ((time - t0) / (t1 - t0)) * innerW);
  const y = (price: number) => PAD.top + innerH - ((price - low) / (high - low)) * innerH;
  return points.map((p, i) => ({ ...p, cx: x(times[i]!, i), cy: y(p.price) }));
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The chart of the product's prices; nothing with fewer than two. */
export function PriceHistoryChart({ details }: { details: Details }) {
  const id = useId();
  const post = details.product_details;
  const points = details.price_history.points;
  if (points.length < 2) return null;
  const placed = layout(points);
  const prices = points.map((p) => p.price);
  const [min, max] = [Math.min(...prices), Math.max(...prices)];
  const money = (price: number) => formatPrice(price, post.currency);
  const first = points[0]!;
  const last = points.at(-1)!;
  const lowest = points.find((p) => p.price === min)!;
  const summary = `${points.length} prices posted here from ${formatDate(first.date)} to ${formatDate(last.date)}, between ${money(min)} and ${money(max)}.`;
  const bottom = HEIGHT - PAD.bottom;
  const ticks = min === max ? [min] : [max, min];
  return (
    <section className="price-history card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Price history</h2>
      <figure className="price-history-figure">
        <svg
          className="price-history-chart"
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          preserveAspectRatio="xMidYMid meet"
        >
          <title id={`${id}-title`}>Price history of {post.title}</title>
          <desc id={`${id}-desc`}>{summary}</desc>
          {ticks.map((price) => {
            const cy = placed.find((p) => p.price === price)!.cy;
            return (
              <g key={price} className="price-history-tick">
                <line x1={PAD.left} x2={WIDTH - PAD.right} y1={round(cy)} y2={round(cy)} />
                <text x={PAD.left - 8} y={round(cy)} dy="0.35em" textAnchor="end">
                  {money(price)}
                </text>
              </g>
            );
          })}
          <line
            className="price-history-axis"
            x1={PAD.left}
            x2={WIDTH - PAD.right}
            y1={bottom}
            y2={bottom}
          />
          <text className="price-history-date" x={PAD.left} y={HEIGHT - 8} textAnchor="start">
            {formatDate(first.date)}
          </text>
          <text
            className="price-history-date"
            x={WIDTH - PAD.right}
            y={HEIGHT - 8}
            textAnchor="end"
          >
            {formatDate(last.date)}
          </text>
          <polyline
            className="price-history-line"
            points={placed.map((p) => `${round(p.cx)},${round(p.cy)}`).join(" ")}
          />
          {placed.map((p) => (
            <circle
              key={p.unique_id}
              className={
                p.unique_id === post.unique_id
                  ? "price-history-point current"
                  : "price-history-point"
              }
              cx={round(p.cx)}
              cy={round(p.cy)}
              r={p.unique_id === post.unique_id ? 6 : 4}
            />
          ))}
        </svg>
        <figcaption>
          {summary} Lowest: {money(min)} on {formatDate(lowest.date)}.{" "}
          <span className="price-history-key">
            <span className="price-history-swatch" aria-hidden="true" /> This deal
          </span>
        </figcaption>
      </figure>
      {/* In a wrapper: a table box ignores the 1px width that hides it, and would widen the page. */}
      <div className="visually-hidden">
        <table>
          <caption>Every price posted for this product, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Posted</th>
              <th scope="col">Price</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.unique_id}>
                <td>
                  <time dateTime={p.date}>{formatDate(p.date)}</time>
                  {p.unique_id === post.unique_id ? " (this deal)" : ""}
                </td>
                <td>{money(p.price)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
