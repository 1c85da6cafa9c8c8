import { Suspense, useId, useRef, useState } from "react";
import { useMatches } from "react-router";
import type { DealCardView } from "../../core/cards/card-view.ts";
import { postPath } from "../../core/posts/paths.ts";
import { useCardLayout } from "../lib/card-layout.ts";
import { useClientLinks } from "../lib/client-links.ts";
import { useGridVoting, type GridVoting } from "../lib/card-votes.ts";
import { ChunkBoundary, lazyChunk } from "../lib/chunks.tsx";
import { formatPrice } from "../lib/format.ts";
import { IMAGE_SIZES, ResponsiveImage } from "./ResponsiveImage.tsx";
import { LowestPriceBadge } from "./LowestPriceBadge.tsx";
import { timeAgo } from "../lib/time-ago.ts";
import { TemperatureBadge } from "./Temperature.tsx";
import { VerifiedTag } from "./VerifiedTag.tsx";

/**
 * The server's clock of this page, for time-ago labels that read the same after hydration: the
 * `now` (ISO) of the nearest route loader that sends one (directly or one level down), else this
 * browser's clock.
 */
function usePageNow(): Date {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const data = matches[i]!.loaderData as Record<string, unknown> | undefined;
    if (!data || typeof data !== "object") continue;
    if (typeof data.now === "string") return new Date(data.now);
    for (const value of Object.values(data)) {
      if (
        value &&
        typeof value === "object" &&
        typeof (value as { now?: unknown }).now === "string"
      )
        return new Date((value as { now: string }).now);
    }
  }
  return new Date();
}

/** Save (record 0043): a bookmark that stays pressed while the deal is among the viewer's saved. */
function CardSave({ deal, voting }: { deal: DealCardView; voting: GridVoting }) {
  const { saved = false, saving } = voting.card(deal);
  return (
    <button
      type="button"
      className="card-save"
      aria-pressed={saved}
      aria-label={`Save ${deal.title}`}
      aria-busy={saving || undefined}
      title={saved ? "Saved" : "Save"}
      onClick={() => voting.toggleSave(deal)}
    />
  );
}

/** The reasons dialog of record 0086, the deal page's chunk: fetched on a grid's first cold press. */
const ColdReasonDialog = lazyChunk("cold-reasons", () => import("./ColdReasonDialog.tsx"));

/** A grid's question "Why is this deal cold?": the deal asked about and its cold button. */
type AskColdReason = (deal: DealCardView, button: HTMLButtonElement) => void;

/**
 * − temperature +: one tap votes (optimistic), a second tap on the same button takes it back. A
 * deal's cold button first asks why, as the deal page's does (record 0086).
 */
function CardVote({
  deal,
  voting,
  badgeId,
  askColdReason,
}: {
  deal: DealCardView;
  voting: GridVoting;
  badgeId: string;
  askColdReason: AskColdReason;
}) {
  const { reaction, temperature, message } = voting.card(deal);
  const asks = deal.post_type === "d" && reaction !== "unlike";
  return (
    <div className="card-vote">
      <div className="card-vote-buttons" role="group" aria-label={`Vote on ${deal.title}`}>
        <button
          type="button"
          className="card-vote-button cold"
          aria-label="Vote cold"
          aria-pressed={reaction === "unlike"}
          aria-describedby={badgeId}
          aria-haspopup={asks ? "dialog" : undefined}
          onClick={(event) =>
            asks ? askColdReason(deal, event.currentTarget) : voting.vote(deal, "unlike")
          }
        />
        <TemperatureBadge degrees={temperature} id={badgeId} icon={null} />
        <button
          type="button"
          className="card-vote-button hot"
          aria-label="Vote hot"
          aria-pressed={reaction === "like"}
          aria-describedby={badgeId}
          onClick={() => voting.vote(deal, "like")}
        />
      </div>
      {message && (
        <p className="card-vote-message" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

export function DealCard({
  deal,
  now,
  voting,
  askColdReason,
  badgeId,
  headingLevel = 3,
  imagePriority = false,
}: {
  deal: DealCardView;
  /** The grid's votes (app/lib/card-votes.ts). */
  voting: GridVoting;
  /** Opens the grid's cold-reason dialog for this card. */
  askColdReason: AskColdReason;
  /** A page-unique id for the card's temperature badge, which its vote buttons refer to. */
  badgeId: string;
  /** The page's clock for the age label (usePageNow, read once per grid). */
  now: Date;
  headingLevel?: 2 | 3 | 4;
  /** The card's image is the page's first: loaded at once, not lazily (ResponsiveImage). */
  imagePriority?: boolean;
}) {
  const Heading = `h${headingLevel}` as const;
  const href = postPath(deal);
  const showWas = deal.list_price !== null && deal.price !== null && deal.list_price > deal.price;
  return (
    <article className={deal.is_expired ? "deal-card expired" : "deal-card"} data-post-id={deal.id}>
      {/* Not a link of its own: the title's link covers the whole card (deal-card.css). */}
      <div className="deal-card-image">
        {deal.image_url ? (
          <ResponsiveImage
            src={deal.image_url}
            alt=""
            width={400}
            height={300}
            sizes={IMAGE_SIZES.card}
            priority={imagePriority}
          />
        ) : (
          <span className="deal-card-noimage" />
        )}
      </div>
      {deal.post_type === "d" && <CardSave deal={deal} voting={voting} />}
      <div className="deal-card-body">
        <div className="deal-card-top">
          <CardVote deal={deal} voting={voting} badgeId={badgeId} askColdReason={askColdReason} />
          <time className="deal-card-age" dateTime={deal.created_at} suppressHydrationWarning>
            {timeAgo(deal.created_at, now)}
          </time>
        </div>
        <Heading className="deal-card-title">
          <a href={href}>{deal.title}</a>
        </Heading>
        <p className="deal-card-price">
          {deal.price !== null && <strong>{formatPrice(deal.price, deal.currency)}</strong>}
          {showWas && (
            <s>
              <span className="visually-hidden">was </span>
              {formatPrice(deal.list_price!, deal.currency)}
            </s>
          )}
          {deal.discount ? <span className="deal-discount">{`−${deal.discount}%`}</span> : null}
        </p>
        <p className="deal-card-foot">
          {deal.is_expired && <span className="card-tag card-tag-expired">Expired</span>}
          <LowestPriceBadge deal={deal} />
          {deal.coupon_code && <span className="card-tag card-tag-code">Code</span>}
          {!deal.is_expired && <VerifiedTag deal={deal} now={now} />}
          {!deal.is_expired && deal.deal_badge && (
            <span className="card-tag card-tag-badge">{deal.deal_badge}</span>
          )}
          {deal.store_title && <span className="deal-card-store">{deal.store_title}</span>}
          <span className="deal-card-comments" title="Comments">
            <span className="visually-hidden">Comments: </span>
            {deal.comments}
          </span>
        </p>
      </div>
    </article>
  );
}

/** Grid | list: how deal lists show, remembered in this browser (app/lib/card-layout.ts). */
export function CardLayoutToggle() {
  const [layout, choose] = useCardLayout();
  return (
    <div className="card-layout-toggle" role="group" aria-label="Show deals as">
      <button
        type="button"
        aria-pressed={layout === "grid"}
        onClick={() => choose("grid")}
        title="Grid"
      >
        <span className="mask-icon mask-icon-grid" aria-hidden="true" />
        <span className="visually-hidden">Grid</span>
      </button>
      <button
        type="button"
        aria-pressed={layout === "list"}
        onClick={() => choose("list")}
        title="List"
      >
        <span className="mask-icon mask-icon-list" aria-hidden="true" />
        <span className="visually-hidden">List</span>
      </button>
    </div>
  );
}

export function DealGrid({
  deals,
  headingLevel,
  layoutToggle = true,
  priorityFirst = false,
}: {
  deals: DealCardView[];
  headingLevel?: 2 | 3 | 4;
  /** The grid | list toggle above the cards; one per page is enough (home's second list). */
  layoutToggle?: boolean;
  /** The grid is the page's first content: its first card's image is not lazy. */
  priorityFirst?: boolean;
}) {
  const now = usePageNow();
  const voting = useGridVoting(deals);
  const gridId = useId();
  const followLink = useClientLinks();
  // One dialog for the grid; rendered from the first ask on, so that closing it returns focus.
  const [asked, setAsked] = useState<{ deal: DealCardView; open: boolean } | null>(null);
  const coldButton = useRef<HTMLButtonElement | null>(null);
  const askColdReason: AskColdReason = (deal, button) => {
    coldButton.current = button;
    setAsked({ deal, open: true });
  };
  const close = () => setAsked((current) => current && { ...current, open: false });
  if (deals.length === 0) return <p className="no-data">No Data Found</p>;
  return (
    <>
      {layoutToggle && <CardLayoutToggle />}
      {/* Cards' links are plain anchors; this one handler navigates in the page (client-links.ts). */}
      <div className="deal-grid" onClick={followLink}>
        {deals.map((deal, i) => (
          <DealCard
            key={deal.unique_id}
            deal={deal}
            now={now}
            voting={voting}
            askColdReason={askColdReason}
            badgeId={`${gridId}t${i}`}
            headingLevel={headingLevel}
            imagePriority={priorityFirst && i === 0}
          />
        ))}
      </div>
      {asked && (
        <ChunkBoundary
          fallback={
            <p className="card-vote-message" role="alert">
              Sorry, that did not work. Please try again.
            </p>
          }
        >
          <Suspense fallback={null}>
            <ColdReasonDialog
              open={asked.open}
              returnFocusTo={coldButton}
              onCancel={close}
              onChoose={(reason) => {
                close();
                voting.vote(asked.deal, "unlike", reason);
              }}
            />
          </Suspense>
        </ChunkBoundary>
      )}
    </>
  );
}
