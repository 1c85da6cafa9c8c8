import { createContext } from "react-router";
import type { PublicConfig } from "../config/public.ts";
import type { CurrentUser } from "../core/auth/sessions.ts";
import type { Deps } from "../core/deps.ts";
import type { Services } from "../core/services.ts";

/**
 * What the Fastify server hands every loader: the core services (the only way route modules reach
 * data), the signed-in user, and per-request security values. Imported through the package import
 * "#app-context" so the server and the built app share one context token.
 */
export interface RequestContext {
  services: Services;
  user: CurrentUser | null;
  /**
   * The XSRF token, echoed as the `_csrf` field of forms that post without JavaScript. Asking for it
   * sets the XSRF cookie on this response when the browser has no valid one: call it only on pages
   * that render such a form, so that other anonymous pages set no cookie and may be cached.
   */
  csrfToken(): string;
  /** This response's Content-Security-Policy nonce, for the scripts React Router writes. */
  cspNonce: string;
  /** Starts or ends the browser's session: sets or clears the session cookie of this response. */
  session: { start(token: string): void; end(): void };
  publicConfig: PublicConfig;
  /** The client's address (for view counting and rate limits). */
  clientIp: string;
  /**
   * Keeps this response out of the server's page cache (server/plugins/page-cache.ts): the render
   * failed after the page began to stream, so the copy on its way in is not the page.
   */
  doNotCache(): void;
  /**
   * Told the URL React Router renders: a render for another path and query than the request's is
   * not stored under the request's (server/plugins/page-cache.ts, `pageRenderedFor`).
   */
  renderedFor(url: string): void;
  /**
   * Work this page does for each visitor besides rendering it (noting a view): done again for
   * every visitor the page cache serves the stored page to, before the page is sent, so quick
   * and in memory.
   */
  onPageCacheHit(work: (visitor: { ip: string; userAgent: string | undefined }) => void): void;
  /** The request's logger (failures a page survives are logged, not shown). */
  log: Deps["log"];
}

export const requestContext = createContext<RequestContext>();
