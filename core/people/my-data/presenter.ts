import { isMediaUrl } from "../../media/media-path.ts";
import { postPath } from "../../posts/paths.ts";
import type * as repo from "./repository.ts";
import type { MyData } from "./responses.ts";
import { presentBadges } from "../reputation/member-reputation.ts";
import { LEDGER_TEXTS } from "../reputation/rules.ts";

/** The layout of the file and its version: a change that moves or renames a field bumps it. */
export const MY_DATA_FORMAT = "chalkboard-deals-my-data/1" as const;

type Rows<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

/** Everything the export read, in one transaction (service.ts). */
export interface ExportRows {
  user: NonNullable<Rows<typeof repo.findUser>>;
  socialAccounts: Rows<typeof repo.findSocialAccounts>;
  subscriptions: Rows<typeof repo.findSubscriptions>;
  undeliverable: Rows<typeof repo.findUndeliverable>;
  posts: Rows<typeof repo.findPosts>;
  comments: Rows<typeof repo.findComments>;
  likes: Rows<typeof repo.findLikes>;
  commentLikes: Rows<typeof repo.findCommentLikes>;
  expiryMarks: Rows<typeof repo.findExpiryMarks>;
  couponFeedback: Rows<typeof repo.findCouponFeedback>;
  reports: Rows<typeof repo.findReports>;
  savedDeals: Rows<typeof repo.findSavedDeals>;
  followedMembers: Rows<typeof repo.findFollowedMembers>;
  followedStores: Rows<typeof repo.findFollowedStores>;
  followedCategories: Rows<typeof repo.findFollowedCategories>;
  alerts: Rows<typeof repo.findAlerts>;
  storeTitles: Map<number, string>;
  notifications: Rows<typeof repo.findNotifications>;
  pushSubscriptions: Rows<typeof repo.findPushSubscriptions>;
  pushMessages: Rows<typeof repo.findPushMessages>;
  emailPreferences: Record<string, boolean>;
  sessions: Rows<typeof repo.findSessions>;
  uploads: Rows<typeof repo.findUploads>;
  educatorRequests: Rows<typeof repo.findEducatorRequests>;
  wishlistSubmissions: Rows<typeof repo.findWishlistSubmissions>;
  contactMessages: Rows<typeof repo.findContactMessages>;
  weeklyDigests: Rows<typeof repo.findWeeklyDigests>;
  digestPosts: Map<number, Rows<typeof repo.findPostsById>[number]>;
  reputation: Rows<typeof repo.findReputation>;
  votingRestrictions: Rows<typeof repo.findVotingRestrictions>;
}

const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

/** `YYYY-MM-DD` of the export's time, UTC: the file's name. */
export function myDataFileName(at: Date): string {
  return `chalkboard-deals-my-data-${at.toISOString().slice(0, 10)}.json`;
}

/**
 * Shapes a member's rows into the file (core/people/my-data/responses.ts). Site paths become
 * absolute under PUBLIC_URL, so the links still work once the file is read elsewhere.
 */
export function presentMyData(
  rows: ExportRows,
  options: { publicUrl: string; at: Date; sessionId: number },
): MyData {
  const { publicUrl } = options;
  const absolute = (path: string) => (path.startsWith("/") ? `${publicUrl}${path}` : path);
  /** A stored image: the site's own media under PUBLIC_URL, an outside address as it was given. */
  const image = (url: string | null) => (!url ? "" : isMediaUrl(url) ? absolute(url) : url);
  const postRef = (row: {
    post_unique_id: string;
    slug: string;
    post_type: "d" | "g";
    title: string;
  }) => ({
    post_unique_id: row.post_unique_id,
    post_title: row.title,
    post_url: absolute(postPath({ ...row, unique_id: row.post_unique_id })),
  });
  const { user } = rows;

  return {
    format: MY_DATA_FORMAT,
    exported_at: iso(options.at),
    site: publicUrl,
    profile: {
      id: user.id,
      name: user.name,
      email: user.email,
      user_type: user.user_type,
      avatar_url: image(user.image_url),
      dob: user.dob,
      gender: user.gender,
      biography: user.biography,
      mobile: user.mobile,
      website: user.website,
      address: user.address,
      role: user.role,
      verified_educator: user.verified_educator,
      has_password: Boolean(user.has_password),
      email_verified_at: isoOrNull(user.email_verified_at),
      suspended_at: isoOrNull(user.suspended_at),
      suspended_until: isoOrNull(user.suspended_until),
      suspension_reason: user.suspension_reason,
      created_at: iso(user.created_at),
      updated_at: iso(user.updated_at),
      profile_url: absolute(`/profile/${user.id}`),
      social_accounts: rows.socialAccounts.map((a) => ({
        provider: a.provider,
        linked_at: iso(a.created_at),
      })),
      subscriptions: rows.subscriptions.map((s) => ({
        id: s.id,
        plan: s.plan,
        status: s.status,
        start_date: s.start_date,
        end_date: s.end_date,
        created_at: iso(s.created_at),
      })),
      mail_undeliverable: rows.undeliverable
        ? { reason: rows.undeliverable.reason, failed_at: iso(rows.undeliverable.failed_at) }
        : null,
    },
    posts: rows.posts.map((p) => ({
      id: p.id,
      unique_id: p.unique_id,
      url: absolute(postPath(p)),
      post_type: p.post_type,
      kind: p.kind,
      title: p.title,
      description: p.description,
      image_url: image(p.image_url),
      price: p.price,
      list_price: p.list_price,
      discount: p.discount,
      currency: p.currency,
      deal_badge: p.deal_badge,
      link: p.link,
      coupon_code: p.coupon_code,
      store: p.store,
      category: p.category,
      forum_category: p.forum_category,
      expires_at: isoOrNull(p.expires_at),
      expired: p.expired,
      status: p.status,
      moderation_reason: p.moderation_reason,
      views: p.views,
      likes: p.likes_count,
      unlikes: p.unlikes_count,
      comments: p.comments_count,
      created_at: iso(p.created_at),
      updated_at: iso(p.updated_at),
    })),
    comments: rows.comments.map((c) => ({
      id: c.id,
      ...postRef(c),
      reply_to: c.parent_id,
      body: c.body,
      status: c.status,
      created_at: iso(c.created_at),
      deleted_at: isoOrNull(c.deleted_at),
    })),
    votes: {
      likes: rows.likes.map((l) => ({
        ...postRef(l),
        reaction: l.reaction,
        reason: l.reason,
        weight: l.weight,
        created_at: iso(l.created_at),
        network: l.voter_network,
      })),
      comment_likes: rows.commentLikes.map((l) => ({
        ...postRef(l),
        comment_id: l.comment_id,
        created_at: iso(l.created_at),
      })),
      expired_marks: rows.expiryMarks.map((m) => ({
        ...postRef(m),
        created_at: iso(m.created_at),
      })),
      coupon_answers: rows.couponFeedback.map((f) => ({
        ...postRef(f),
        worked: f.worked,
        answered_at: iso(f.answered_at),
      })),
    },
    reports: rows.reports.map((r) => ({
      id: r.id,
      item_type: r.item_type,
      item_id: r.item_id,
      reason: r.reason,
      note: r.note,
      status: r.status,
      created_at: iso(r.created_at),
      resolved_at: isoOrNull(r.resolved_at),
    })),
    saved_deals: rows.savedDeals.map((s) => ({ ...postRef(s), saved_at: iso(s.created_at) })),
    follows: {
      members: rows.followedMembers.map((m) => ({
        id: m.id,
        name: m.name,
        url: absolute(`/profile/${m.id}`),
        followed_at: iso(m.created_at),
      })),
      stores: rows.followedStores.map((s) => ({
        id: s.id,
        name: s.title,
        url: absolute(`/store/${s.slug}`),
        followed_at: iso(s.created_at),
      })),
      categories: rows.followedCategories.map((c) => ({
        id: c.id,
        name: c.title,
        url: absolute(`/category/${c.slug}`),
        followed_at: iso(c.created_at),
      })),
    },
    alerts: rows.alerts.map((a) => ({
      id: a.id,
      keywords: a.keywords,
      stores: a.store_ids.flatMap((id) => rows.storeTitles.get(Number(id)) ?? []),
      category: a.category,
      max_price: a.max_price,
      min_discount: a.min_discount,
      only_hot: a.only_hot,
      delivery: a.delivery,
      digest_hour: a.digest_hour,
      paused: a.paused,
      last_mailed_at: isoOrNull(a.last_mailed_at),
      created_at: iso(a.created_at),
      updated_at: iso(a.updated_at),
    })),
    notifications: rows.notifications.map((n) => ({
      id: n.id,
      kind: n.kind,
      message: n.message,
      link: n.link ? absolute(n.link) : "",
      read_at: isoOrNull(n.read_at),
      mailed_at: isoOrNull(n.mailed_at),
      created_at: iso(n.created_at),
    })),
    push_devices: rows.pushSubscriptions.map((d) => ({
      id: d.id,
      device: d.device_label,
      endpoint: d.endpoint,
      created_at: iso(d.created_at),
      last_used_at: isoOrNull(d.last_used_at),
    })),
    push_messages: rows.pushMessages.map((m) => ({
      id: m.id,
      kind: m.kind,
      title: m.title,
      body: m.body,
      link: absolute(m.url),
      delivered_to: Number(m.delivered_to ?? 0),
      created_at: iso(m.created_at),
    })),
    email_preferences: rows.emailPreferences,
    weekly_digests: rows.weeklyDigests.map((d) => ({
      week: d.week,
      mailed: d.mailed,
      created_at: iso(d.created_at),
      deals: d.post_ids.flatMap((id) => {
        const post = rows.digestPosts.get(Number(id));
        return post ? [postRef(post)] : [];
      }),
    })),
    sessions: rows.sessions.map((s) => ({
      id: s.id,
      user_agent: s.user_agent,
      created_at: iso(s.created_at),
      last_seen_at: iso(s.last_seen_at),
      expires_at: iso(s.expires_at),
      current: s.id === options.sessionId,
    })),
    uploaded_images: rows.uploads.map((u) => ({
      url: absolute(`/media/${u.path}`),
      mime: u.mime,
      width: u.width,
      height: u.height,
      bytes: u.bytes,
      uploaded_at: iso(u.created_at),
    })),
    educator_requests: rows.educatorRequests.map((r) => ({
      id: r.id,
      method: r.method,
      school_email: r.school_email,
      note: r.note,
      status: r.status,
      reason: r.reason,
      created_at: iso(r.created_at),
      decided_at: isoOrNull(r.decided_at),
    })),
    wishlist_submissions: rows.wishlistSubmissions.map((w) => ({
      id: w.id,
      first_name: w.first_name,
      last_name: w.last_name,
      school_location: w.school_location,
      amazon_wishlist: w.amazon_wishlist,
      status: w.status,
      review_reason: w.review_reason,
      created_at: iso(w.created_at),
    })),
    contact_messages: rows.contactMessages.map((m) => ({
      id: m.id,
      name: m.name,
      email: m.email,
      mobile: m.mobile,
      website: m.website,
      category: m.category,
      subject: m.subject,
      message: m.message,
      item_link: m.item_link,
      status: m.status,
      created_at: iso(m.created_at),
      resolved_at: isoOrNull(m.resolved_at),
      replies: m.replies.map((r) => ({ body: r.body, created_at: iso(r.created_at) })),
    })),
    reputation: {
      points: rows.reputation.summary?.points ?? 0,
      level: rows.reputation.summary?.level ?? "Newcomer",
      computed_at: isoOrNull(rows.reputation.summary?.computed_at ?? null),
      badges: presentBadges(rows.reputation.badges),
      ledger: rows.reputation.ledger.map((line) => ({
        kind: line.kind,
        points: line.points,
        detail: line.detail,
        rule: LEDGER_TEXTS[line.kind],
        post_unique_id: line.unique_id,
        occurred_at: iso(line.occurred_at),
      })),
    },
    voting_restrictions: rows.votingRestrictions.map((r) => ({
      kind: r.kind,
      reason: r.reason,
      created_at: iso(r.created_at),
      ends_at: isoOrNull(r.ends_at),
      lifted_at: isoOrNull(r.lifted_at),
    })),
  };
}
