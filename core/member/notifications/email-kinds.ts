/**
 * The kinds of mail a member may switch on or off at /user/settings/email, each with its default
 * (docs/decisions/0044-notifications-and-unsubscribe.md). Account mails (confirmation, password
 * reset, security notices) are not among them: they always go out and carry no unsubscribe link.
 */
export const EMAIL_KINDS = [
  "comment_reply",
  "post_comment",
  "post_like",
  "new_follower",
  "moderation",
  "alert",
  "weekly_digest",
] as const;

export type EmailKind = (typeof EMAIL_KINDS)[number];

export function isEmailKind(value: unknown): value is EmailKind {
  return typeof value === "string" && (EMAIL_KINDS as readonly string[]).includes(value);
}

/** How the settings page and the mails name each kind, and whether it is on until changed. */
export const EMAIL_KIND_INFO: Record<
  EmailKind,
  { label: string; description: string; defaultOn: boolean }
> = {
  comment_reply: {
    label: "Replies to my comments",
    description: "When someone replies to a comment you wrote.",
    defaultOn: true,
  },
  post_comment: {
    label: "Comments on my posts",
    description: "When someone comments on a deal or discussion you posted.",
    defaultOn: true,
  },
  post_like: {
    label: "Likes on my posts",
    description: "When members like a deal or discussion you posted, gathered into one mail.",
    defaultOn: false,
  },
  new_follower: {
    label: "New followers",
    description: "When someone starts following you.",
    defaultOn: true,
  },
  moderation: {
    label: "Moderators' decisions",
    description: "When a moderator acts on your reports, your posts or your requests.",
    defaultOn: true,
  },
  alert: {
    label: "Deal alerts",
    description: "Mails of your keyword alerts, as each alert's delivery says.",
    defaultOn: true,
  },
  // Opt-in: a mail nobody asked for, sent to everyone every week, is what people mark as spam.
  // The settings page says when it comes (core/member/digest/schedule.ts).
  weekly_digest: {
    label: "Weekly digest",
    description:
      "Once a week, the hottest deals from the stores and categories you follow (or from the whole site if you follow none). Only when there is something new.",
    defaultOn: false,
  },
};

/**
 * The mail kind an in-site notification belongs to, or null when the notification mail job does
 * not mail it: alert matches are mailed by the alerts themselves (instant or daily, per alert).
 * The weekly digest is no notification: its own job mails it (core/member/digest).
 */
export function emailKindOf(notificationKind: string): EmailKind | null {
  switch (notificationKind) {
    case "comment_reply":
    case "post_comment":
    case "post_like":
    case "new_follower":
      return notificationKind;
    case "report_resolved":
    case "moderation":
    case "educator_verified":
    case "educator_rejected":
    case "wishlist_approved":
    case "wishlist_rejected":
      return "moderation";
    default:
      return null;
  }
}

/** The notification kinds that belong to a mail kind (for the mail job's query). */
export function notificationKindsOf(kind: EmailKind): string[] {
  switch (kind) {
    case "moderation":
      return [
        "report_resolved",
        "moderation",
        "educator_verified",
        "educator_rejected",
        "wishlist_approved",
        "wishlist_rejected",
      ];
    case "alert":
    case "weekly_digest":
      return [];
    default:
      return [kind];
  }
}
