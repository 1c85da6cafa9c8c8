import { isbot } from "isbot";

/**
 * Whether a request counts as a view of a post. Crawlers and scripts that say who they are do not;
 * neither does a request without a user agent (no browser sends none).
 */
export function countsAsView(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  return !isbot(userAgent);
}
