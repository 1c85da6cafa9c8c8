import { EducatorBadge } from "./EducatorBadge.tsx";
import { Link } from "react-router";
import { FiExternalLink } from "react-icons/fi";
import type { PostDetails } from "../../core/posts/service.ts";
import { formatDate, formatPrice } from "../lib/format.ts";
import { timeAgo } from "../lib/time-ago.ts";
import { Breadcrumbs, type Crumb } from "./Breadcrumbs.tsx";
import { Avatar } from "./Avatar.tsx";
import { CommentForm } from "./CommentForm.tsx";
import { CommentThread } from "./CommentThread.tsx";
import { CouponCode } from "./CouponCode.tsx";
import { DealLinkActions, grabDealRel } from "./DealLinkActions.tsx";
import { FreshnessPanel } from "./FreshnessPanel.tsx";
import { ExpiryPanel } from "./ExpiryPanel.tsx";
import { ColdReasonCounts } from "./ColdReasonCounts.tsx";
import { LikeButtons } from "./LikeButtons.tsx";
import { PostNewTopicButton } from "./PostNewTopicButton.tsx";
import { PriceHistoryChart, PriceHistoryNote } from "./PriceHistory.tsx";
import { RelatedDeals } from "./RelatedDeals.tsx";
import { ReportButton } from "./ReportButton.tsx";
import { IMAGE_SIZES, ResponsiveImage } from "./ResponsiveImage.tsx";
import { ShareButtons } from "./ShareButtons.tsx";
import { SaveButton } from "./SaveButton.tsx";
// Breadcrumbs are styled with the listing pages; the moderation banner with the console.
import "../styles/post.css";

interface PostDetailProps {
  details: PostDetails;
  /** "deal" shows price, badge and coupon; "educator" is the same page without them. */
  variant: "deal" | "educator";
  crumbs: Crumb[];
  canonicalUrl: string;
  /** The signed-in member, with the XSRF token of the page's forms (none on a visitor's page). */
  viewer: { id: number; image: string; csrfToken: string } | null;
  /** The server's clock at load time (ISO), for time-ago labels that match after hydration. */
  now: string;
}

type Post = PostDetails["product_details"];

function CommentCount({ count }: { count: number }) {
  return <>{count === 1 ? "1 comment" : `${count} comments`}</>;
}

/** The post's image with the deal's badge (or "Expired") over it. */
function PostMedia({ post, isDeal }: { post: Post; isDeal: boolean }) {
  if (!post.image_url) return null;
  return (
    <div className="post-media">
      <ResponsiveImage
        src={post.image_url}
        alt={post.title}
        width={800}
        height={600}
        sizes={IMAGE_SIZES.post}
        priority
      />
      {isDeal && post.deal_badge && !post.is_expired && (
        <span className="deal-badge">{post.deal_badge}</span>
      )}
      {isDeal && post.is_expired && <span className="deal-badge expired-badge">Expired</span>}
    </div>
  );
}

/** Who posted it and when, then its views, comments and end date. */
function PostByline({ post, at }: { post: Post; at: Date }) {
  const created = new Date(post.created_at);
  return (
    <>
      <p className="post-byline">
        <Avatar name={post.user_name} image={post.user_image} size={32} />
        <span>
          {post.user ? (
            <>
              Posted by <Link to={`/profile/${post.user.id}`}>{post.user.name}</Link>
              <EducatorBadge verified={post.user_verified_educator} />
              {/* The level as plain markup, not Reputation.tsx's LevelTag: importing it would add a
                  script to the deal page's start (record 0088). */}
              {post.user_level && (
                <span className="level-tag">
                  <span className="visually-hidden">Level: </span>
                  {post.user_level}
                </span>
              )}
            </>
          ) : (
            <>Posted by {post.user_name || "a member"}</>
          )}{" "}
          <time dateTime={post.created_at} title={created.toUTCString()}>
            {timeAgo(created, at)}
          </time>
        </span>
      </p>
      <p className="post-stats">
        <span>{post.views === 1 ? "1 view" : `${post.views} views`}</span>
        <span>
          <CommentCount count={post.comments_count} />
        </span>
        {post.expiry && !post.is_expired && <span>Ends {formatDate(post.expiry)}</span>}
      </p>
    </>
  );
}

/** A deal's price, its crossed-out list price and its discount. */
function PostPrice({ post }: { post: Post }) {
  if (post.price === null && !post.discount) return null;
  return (
    <p className="post-price">
      {post.price !== null && (
        <strong>
          <span className="visually-hidden">Price: </span>
          {formatPrice(post.price, post.currency)}
        </strong>
      )}
      {post.list_price !== null && post.price !== null && post.list_price > post.price && (
        <s>
          <span className="visually-hidden">List price: </span>
          {formatPrice(post.list_price, post.currency)}
        </s>
      )}
      {post.discount ? <span className="deal-discount">{post.discount}% off</span> : null}
    </p>
  );
}

/** GRAB DEAL: the deal's link in a new tab, through /go/{unique_id} (counted, then redirected). */
function GrabDealLink({ post }: { post: Post }) {
  if (!post.go_url) return null;
  return (
    <a
      className={post.is_expired ? "btn btn-grab expired" : "btn btn-grab"}
      href={post.go_url}
      target="_blank"
      rel={grabDealRel(post)}
    >
      {post.is_expired ? "GRAB DEAL (expired)" : "GRAB DEAL"}
      <FiExternalLink aria-hidden="true" />
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/**
 * The state of a post that is not public (held, hidden or removed), for the author and the
 * moderators, who alone can open it.
 */
function ModerationBanner({ details }: { details: PostDetails }) {
  const state = details.moderation;
  if (!state) return null;
  return (
    <p className="moderation-banner" role="status">
      <strong>{state.label}.</strong>
      {/* A removal's reason is in its label; a hide's (a moderator's, or the reports') is here. */}
      {state.status === "hidden" && state.reason && <> {state.reason}</>} Only its author and the
      moderators can see this page.
    </p>
  );
}

/**
 * The threaded comments and the Leave a Comment box. A visitor may type in it too: posting sends
 * them to /login and the comment is posted on their return (CommentForm, record 0035).
 */
function PostComments({
  details,
  viewer,
  at,
}: {
  details: PostDetails;
  viewer: PostDetailProps["viewer"];
  at: Date;
}) {
  const post = details.product_details;
  // A post out of public view takes no new comments (the API refuses them too).
  const isPublic = !details.moderation;
  return (
    <section className="post-comments card" aria-labelledby="comments-heading">
      <h2 id="comments-heading">
        Comments <span className="comments-count">({post.comments_count})</span>
      </h2>
      <CommentThread
        comments={details.comments}
        postId={post.post_id}
        postType={post.post_type}
        viewerId={viewer?.id ?? null}
        csrfToken={viewer?.csrfToken ?? null}
        now={at}
        open={isPublic}
      />
      <div className="leave-comment">
        <h3>Leave a Comment</h3>
        {!isPublic ? (
          <p>Comments are closed while this post is not public.</p>
        ) : (
          <div className="leave-comment-box">
            {viewer && <Avatar name="You" image={details.comments_user_image} size={40} />}
            <CommentForm
              postId={post.post_id}
              postType={post.post_type}
              viewerId={viewer?.id ?? null}
              csrfToken={viewer?.csrfToken ?? null}
              label="Your comment"
              submitLabel={viewer ? "POST COMMENT" : "LEAVE A COMMENT"}
            />
          </div>
        )}
      </div>
    </section>
  );
}

/** The deal detail page and the educator post page (the spec's "Deal detail" screen). */
export function PostDetail({
  details,
  variant,
  crumbs,
  canonicalUrl,
  viewer,
  now,
}: PostDetailProps) {
  const post = details.product_details;
  const at = new Date(now);
  const isDeal = variant === "deal";
  const absoluteImage = post.image_url ? new URL(post.image_url, canonicalUrl).toString() : "";

  return (
    <div className="container post-page">
      <div className="post-page-top">
        <Breadcrumbs items={crumbs} />
        <PostNewTopicButton />
      </div>

      <ModerationBanner details={details} />

      {post.is_expired && (
        <p className="alert alert-expired" role="status">
          This deal has expired
          {post.expiry ? <> (ended {formatDate(post.expiry)})</> : null}.
        </p>
      )}

      <article className="post-detail" aria-labelledby="post-title">
        <div className="post-main card">
          <PostMedia post={post} isDeal={isDeal} />
          <div className="post-summary">
            {(post.store || post.category) && (
              <p className="post-taxonomy">
                {post.store && <Link to={`/store/${post.store.slug}`}>{post.store.title}</Link>}
                {post.category && (
                  <Link to={`/category/${post.category.slug}`}>{post.category.title}</Link>
                )}
              </p>
            )}
            <h1 id="post-title" className="post-title">
              {post.title}
            </h1>
            <PostByline post={post} at={at} />
            {isDeal && <PostPrice post={post} />}
            {isDeal && <PriceHistoryNote details={details} />}
            {isDeal && post.coupon_code && <CouponCode code={post.coupon_code} />}
            <GrabDealLink post={post} />
            <DealLinkActions post={post} />
            {isDeal && <FreshnessPanel details={details} viewerId={viewer?.id ?? null} at={at} />}
            {isDeal && !details.moderation && <ExpiryPanel />}
            {!details.moderation && (
              <LikeButtons
                key={post.post_id}
                postId={post.post_id}
                postType={post.post_type}
                isLiked={post.is_liked}
                likes={post.likes}
                unlikes={post.unlikes}
                temperature={post.temperature}
                isLikedWeight={post.is_liked_weight}
                voteWeight={post.vote_weight}
                viewerId={viewer?.id ?? null}
                askColdReason={isDeal}
              />
            )}
            {details.cold_reasons && <ColdReasonCounts counts={details.cold_reasons} />}
            {isDeal && !details.moderation && (
              <SaveButton key={post.unique_id} uniqueId={post.unique_id} title={post.title} />
            )}
            <ShareButtons url={canonicalUrl} title={post.title} image={absoluteImage} />
            {!details.moderation && post.user_id !== viewer?.id && (
              <ReportButton
                itemType={post.post_type}
                itemId={post.unique_id}
                what={isDeal ? "this deal" : "this discussion"}
                viewerId={viewer?.id ?? null}
                csrfToken={viewer?.csrfToken ?? null}
              />
            )}
          </div>
        </div>

        {post.description && (
          <section className="post-description card" aria-labelledby="post-description-heading">
            <h2 id="post-description-heading">{isDeal ? "Deal details" : "Discussion"}</h2>
            {/* Sanitised on write and again by the presenter. */}
            <div className="rich-text" dangerouslySetInnerHTML={{ __html: post.description }} />
          </section>
        )}
      </article>

      {isDeal && <PriceHistoryChart details={details} />}

      <RelatedDeals deals={details.related_deals} />

      <PostComments details={details} viewer={viewer} at={at} />
    </div>
  );
}
