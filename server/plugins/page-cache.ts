import { Readable, Transform } from "node:stream";
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { themeFromCookieHeader } from "../../app/lib/theme.ts";
import { SUSPENSION_NOTICE_COOKIE } from "../../core/auth/suspension.ts";
import { CHANGE_TOPICS, type ChangeFeed } from "../../core/cache/changes.ts";
import { acceptsToken } from "../accept-header.ts";
import { PageCache, type HitWork, type PageEncoding, type PageEntry } from "./page-cache-store.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { OAUTH_FLOW_COOKIE } from "../routes/oauth.ts";
import { PROBE_PATHS } from "../routes/probes.ts";
import { isHtmlType } from "./http-cache.ts";

/** What the page cache decided for this request: served a stored page, or may store this one. */
type PageCacheState =
  { hit: PageEntry } | { key: string; generation: number; noStore: boolean; onHit: HitWork[] };

declare module "fastify" {
  interface FastifyRequest {
    pageCache: PageCacheState | null;
  }
}

/** The bounds: pages of up to 256 kB each, 64 MB in all, a minute old at most. */
export const PAGE_CACHE_LIMITS = {
  maxEntries: 2_000,
  maxBytes: 64 * 1024 * 1024,
  maxEntryBytes: 256 * 1024,
  maxAgeMs: 60_000,
};

/**
 * Cookies a public page's HTML may depend on beyond the theme (which is in the key): a request
 * that carries one is rendered afresh and not stored. The XSRF token is not among them: a page
 * that writes it into a form is never stored (see `storable`).
 */
const PERSONAL_COOKIES = [SESSION_COOKIE, SUSPENSION_NOTICE_COOKIE, OAUTH_FLOW_COOKIE];

/** Paths that are never pages. */
const NOT_PAGES = /^\/(api|media|assets)\//;

function isAnonymousPageRequest(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (NOT_PAGES.test(request.url) || PROBE_PATHS.test(request.url)) return false;
  if (request.user || request.headers.authorization) return false;
  return !PERSONAL_COOKIES.some((name) => request.cookies[name] !== undefined);
}

/** The encoding a stored page goes in: brotli (every current browser asks for it), gzip, none. */
function pageEncodingFor(acceptEncoding: string | undefined): PageEncoding | null {
  if (acceptsToken(acceptEncoding, "br")) return "br";
  if (acceptsToken(acceptEncoding, "gzip")) return "gzip";
  return null;
}

/** URL (path and query) and theme: everything an anonymous page's HTML varies on. */
function keyOf(request: FastifyRequest): string {
  return `${themeFromCookieHeader(request.headers.cookie) ?? "system"} ${request.url}`;
}

/**
 * The page cache for anonymous visitors (docs/decisions/0049-page-cache.md). Registered right
 * after the HTTP cache, whose onSend decides what is public (this stores only that), and before
 * compression (this keeps the plain body; a hit's compressed body passes compression untouched).
 * It looks up in preParsing, after the session and CSRF plugins' onRequest hooks.
 *
 * - A hit is answered before any route runs, with the stored page as it was rendered, compressed
 *   once per encoding, and its ETag; the HTTP cache answers 304. Its Content-Security-Policy
 *   admits the page's own scripts by their hashes (the security headers read
 *   `request.cspScriptHashes`), not by a nonce, which would have to be new in every answer
 *   (docs/decisions/0067-cached-pages-by-hash.md).
 * - A miss streams to the client as React renders it, and a copy goes into the cache as it passes
 *   when the answer is a public 200 HTML page with no Set-Cookie and without the visitor's XSRF
 *   token in it.
 * - Any change in `deps.changes`, of this process or another (server/change-broadcast.ts), drops it.
 */
export const pageCachePlugin = fp<{
  changes: ChangeFeed;
  enabled: boolean;
  limits?: Partial<typeof PAGE_CACHE_LIMITS>;
}>(
  async (app, options) => {
    app.decorateRequest("pageCache", null);
    if (!options.enabled) return;
    const limits = { ...PAGE_CACHE_LIMITS, ...options.limits };
    const cache = new PageCache(limits);
    const unsubscribe = options.changes.on(CHANGE_TOPICS, () => cache.clear());
    app.addHook("onClose", async () => unsubscribe());

    // After every onRequest hook: the session plugin's `request.user` is known.
    app.addHook("preParsing", async (request, reply, payload) => {
      if (!isAnonymousPageRequest(request)) return payload;
      const key = keyOf(request);
      const entry = cache.get(key);
      if (!entry) {
        request.pageCache = { key, generation: cache.generation, noStore: false, onHit: [] };
        return payload;
      }
      request.pageCache = { hit: entry };
      const visitor = { ip: request.ip, userAgent: request.headers["user-agent"] };
      for (const work of entry.onHit) {
        try {
          work(visitor);
        } catch (error) {
          request.log.error({ msg: "the page cache's per-visitor work failed", err: error });
        }
      }
      // The page goes out as it was rendered; the policy admits its own scripts by their hashes.
      request.cspScriptHashes = entry.scriptHashes;
      reply.header("content-type", entry.contentType);
      reply.header("etag", entry.etag);
      const encoding = pageEncodingFor(request.headers["accept-encoding"]);
      if (encoding) reply.header("content-encoding", encoding);
      await reply.send(encoding ? cache.encoded(entry, encoding) : entry.body);
      return reply;
    });

    app.addHook("onSend", async (request, reply, payload) => {
      const state = request.pageCache;
      if (!state || "hit" in state || state.noStore) return payload;
      if (
        request.method !== "GET" ||
        reply.statusCode !== 200 ||
        request.user ||
        reply.hasHeader("set-cookie") ||
        !isHtmlType(reply.getHeader("content-type")) ||
        !String(reply.getHeader("cache-control") ?? "").startsWith("public")
      ) {
        return payload;
      }
      const page = {
        nonce: request.cspNonce,
        contentType: String(reply.getHeader("content-type")),
      };
      /** A page that asked for this visitor's XSRF token (a form) is theirs alone. */
      const store = (body: Buffer) => {
        if (state.noStore || request.xsrfState?.token) return;
        cache.set(state.key, { ...page, body, onHit: state.onHit }, state.generation);
      };
      if (typeof payload === "string" || Buffer.isBuffer(payload)) {
        const body = Buffer.from(payload);
        if (body.length <= limits.maxEntryBytes) store(body);
        return payload;
      }
      if (!(payload instanceof Readable)) return payload;

      // Streamed on to the client chunk by chunk as React writes it; a copy is kept on the way.
      const chunks: Buffer[] = [];
      let size = 0;
      const tee = new Transform({
        transform(chunk: Buffer | string, _encoding, callback) {
          const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
          if (!state.noStore) {
            size += bytes.length;
            if (size > limits.maxEntryBytes) {
              state.noStore = true;
              chunks.length = 0;
            } else {
              chunks.push(bytes);
            }
          }
          callback(null, bytes);
        },
        flush(callback) {
          store(Buffer.concat(chunks));
          callback();
        },
      });
      payload.once("error", (error) => {
        state.noStore = true;
        tee.destroy(error);
      });
      return payload.pipe(tee);
    });
  },
  { name: "page-cache", dependencies: ["@fastify/cookie"] },
);

/** Marks this request's page as not to be stored (a render that failed after it began). */
export function doNotStorePage(request: FastifyRequest): void {
  const state = request.pageCache;
  if (state && !("hit" in state)) state.noStore = true;
}

/** A target's path and query as a URL parser reads them (`/a/../b?` and `/b` are one page). */
function pathAndQuery(url: string): string | null {
  try {
    const parsed = new URL(url, "http://page.invalid");
    return parsed.pathname + parsed.search;
  } catch {
    return null;
  }
}

/**
 * Stores this request's page only if React Router rendered it for the request's own path and
 * query: a render of another page (which a Host header carrying a path once caused, see
 * server/public-origin.ts) never goes in under this path.
 */
export function pageRenderedFor(request: FastifyRequest, renderedUrl: string): void {
  const rendered = pathAndQuery(renderedUrl);
  if (rendered === null || rendered !== pathAndQuery(request.url)) doNotStorePage(request);
}

/** Has `work` done again for each visitor a stored copy of this request's page is served to. */
export function onPageCacheHit(request: FastifyRequest, work: HitWork): void {
  const state = request.pageCache;
  if (state && !("hit" in state)) state.onHit.push(work);
}
