import { isbot } from "isbot";

/**
 * Whether a request counts as a view of a post. Crawlers and scripts that say who they are do not;
 * neither does a request without a user agent (no browser sends none).
 */
export function countsAsView(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  return !isbot(userAgent);
}

/**
 * Whether a deal has ended at `at`: its end date has come. The one rule for "Expired" badges,
 * refusals and checks (record 0037); `posts.expired` is this rule kept by the minute sweep for the
 * lists' order (core/posts/expiry/sweep.ts).
 */
export function hasEnded(post: { expires_at: Date | null }, at: Date): boolean {
  return post.expires_at !== null && post.expires_at.getTime() <= at.getTime();
}
