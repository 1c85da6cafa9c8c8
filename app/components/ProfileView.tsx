import type { ReactNode } from "react";
import { EducatorAccountLink, EducatorBadge } from "./EducatorBadge.tsx";
import { Link } from "react-router";
import type { ProfilePage } from "../../core/people/profiles/presenter.ts";
import { formatDate } from "../lib/format.ts";
import { Avatar } from "./Avatar.tsx";
import { DealGrid } from "./DealCard.tsx";
import { FollowButton } from "./FollowButton.tsx";
import { FollowCarousel } from "./FollowCarousel.tsx";
import { Pager } from "./Pager.tsx";
import { LevelTag } from "./Reputation.tsx";
import { ReputationSummary } from "./ReputationSummary.tsx";
import { ReportButton } from "./ReportButton.tsx";
import { SubscriptionBlock } from "./SubscriptionBlock.tsx";
// The pager's styles live with the listing pages'.
import "../styles/profile.css";

interface ProfileViewProps {
  profile: ProfilePage;
  /** The signed-in user's id, or null for a visitor. */
  viewerId: number | null;
  /** Where the page lives, for the deal pages' links (?page=n). */
  path: string;
  /** My Account only: how many of the owner's notifications are unread. */
  unreadNotifications?: number;
  /** A member's XSRF token, for the report form posted to the public profile; none for a visitor. */
  csrfToken?: string | null;
  /** The owner's own sections (My Account), shown after followers and followings. */
  children?: ReactNode;
  /** My Account only: a warning shown above everything else (undeliverable mail). */
  notice?: ReactNode;
}

type ProfileUser = ProfilePage["user_data"];

/** Email, mobile and address: on the owner's own page only. */
function PrivateDetails({ user }: { user: ProfileUser }) {
  return (
    <dl className="profile-private" aria-label="Private details, shown only to you">
      <div>
        <dt>Email</dt>
        <dd>{user.user_email}</dd>
      </div>
      {user.user_mobile && (
        <div>
          <dt>Mobile</dt>
          <dd>{user.user_mobile}</dd>
        </div>
      )}
      {user.user_address && (
        <div>
          <dt>Address</dt>
          <dd>{user.user_address}</dd>
        </div>
      )}
    </dl>
  );
}

/** Avatar, name, user type, join date, EDIT PROFILE or FOLLOW, and the counts (the spec). */
function ProfileHeader({
  user,
  level,
  isOwn,
  viewerId,
  unreadNotifications,
  csrfToken,
}: {
  user: ProfileUser;
  level: string;
  isOwn: boolean;
  viewerId: number | null;
  unreadNotifications?: number;
  csrfToken: string | null;
}) {
  const stats = [
    { label: "Deals", value: user.deal_count },
    { label: "Coupons", value: user.coupon_count },
    { label: "Followers", value: user.followers },
    { label: "Following", value: user.followings },
  ];
  return (
    <section className="card profile-header" aria-labelledby="profile-name">
      <Avatar name={user.user_name} image={user.user_image} size={120} />
      <div className="profile-identity">
        <h1 id="profile-name" className="page-title">
          {user.user_name}
          <EducatorBadge verified={user.user_verified_educator} />
        </h1>
        <p className="profile-meta">
          <span className="profile-type">{user.user_type}</span>
          <LevelTag level={level} />
          <span>Joined {formatDate(user.join_date)}</span>
        </p>
        {user.user_biography && <p className="profile-bio">{user.user_biography}</p>}
        {user.user_website && (
          <p>
            <a href={user.user_website} rel="nofollow ugc noopener" target="_blank">
              {user.user_website.replace(/^https?:\/\//, "")}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </p>
        )}
        {isOwn && <PrivateDetails user={user} />}
      </div>
      <div className="profile-actions">
        {isOwn ? (
          <>
            <Link to="/user/profile-edit" className="btn btn-primary">
              EDIT PROFILE
            </Link>
            {unreadNotifications !== undefined && (
              <Link to="/user/notifications" className="profile-notifications">
                Notifications
                {unreadNotifications > 0 && (
                  <span className="notification-count">
                    {unreadNotifications}
                    <span className="visually-hidden"> unread</span>
                  </span>
                )}
              </Link>
            )}
            {unreadNotifications !== undefined && (
              <EducatorAccountLink verified={user.user_verified_educator} />
            )}
          </>
        ) : (
          <>
            <FollowButton
              key={user.user_id}
              userId={user.user_id}
              name={user.user_name}
              isFollow={user.is_follow === 1}
              viewerId={viewerId}
            />
            <ReportButton
              itemType="user"
              itemId={user.user_id}
              what={`${user.user_name}'s profile`}
              viewerId={viewerId}
              csrfToken={csrfToken}
            />
          </>
        )}
      </div>
      <ul className="profile-stats" aria-label="Activity">
        {stats.map((stat) => (
          <li key={stat.label}>
            <strong>{stat.value}</strong> <span>{stat.label}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The owner's posts held for a moderator's review: only they see them, so they are listed here
 * rather than among the public deals, each marked (docs/decisions/0089-newcomer-links.md).
 */
function WaitingForReview({ posts }: { posts: NonNullable<ProfilePage["waiting_for_review"]> }) {
  if (!posts.length) return null;
  return (
    <div className="card profile-waiting" aria-labelledby="waiting-heading">
      <h3 id="waiting-heading">Waiting for review</h3>
      <p>
        Only you can see these until a moderator approves them.{" "}
        <Link to="/help#privileges">Why posts wait</Link>
      </p>
      <ul>
        {posts.map((post) => (
          <li key={post.unique_id}>
            <Link to={post.url}>{post.title}</Link> <span className="status-tag">{post.label}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A member's page, shared by My Account and the public profile: who they are, their counts, the
 * subscription block (owner only), followers and followings, and their deals. The owner gets
 * EDIT PROFILE and their private details; anyone else gets FOLLOW / UN FOLLOW.
 */
export function ProfileView({
  profile,
  viewerId,
  path,
  unreadNotifications,
  csrfToken = null,
  children,
  notice,
}: ProfileViewProps) {
  const user = profile.user_data;
  const isOwn = viewerId === user.user_id;
  const pagination = profile.deal_data_pagination;

  return (
    <div className="container profile">
      {notice}
      <ProfileHeader
        user={user}
        level={profile.reputation.level}
        isOwn={isOwn}
        viewerId={viewerId}
        unreadNotifications={unreadNotifications}
        csrfToken={csrfToken}
      />

      <ReputationSummary reputation={profile.reputation} isOwn={isOwn} />

      {profile.user_subscriptions && (
        <SubscriptionBlock subscriptions={profile.user_subscriptions} />
      )}

      <section className="card profile-section" aria-labelledby="followers-heading">
        <h2 id="followers-heading">Followers</h2>
        <FollowCarousel entries={profile.followers_data} label="followers" />
      </section>

      <section className="card profile-section" aria-labelledby="followings-heading">
        <h2 id="followings-heading">Following</h2>
        <FollowCarousel entries={profile.followings_data} label="followings" />
      </section>

      {isOwn && children}

      <section className="profile-section" aria-labelledby="deals-heading">
        <h2 id="deals-heading">{isOwn ? "My Deals" : `Deals by ${user.user_name}`}</h2>
        {isOwn && profile.waiting_for_review && (
          <WaitingForReview posts={profile.waiting_for_review} />
        )}
        <DealGrid deals={profile.deal_data} />
        <Pager
          page={pagination.current_page}
          lastPage={pagination.last_page}
          hrefFor={(page) => `${path}?page=${page}`}
          label="Deal pages"
        />
      </section>
    </div>
  );
}
