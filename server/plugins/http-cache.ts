import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { etagOfParts, splitAtNonce } from "./page-cache-store.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A public, cacheable GET answer: Cache-Control max-age in seconds, ETag and 304. */
    cacheSeconds?: number;
  }
}

/**
 * Anonymous pages: a browser revalidates every time (with the ETag of a page-cache hit, so a
 * change shows at once and an unchanged page is a 304); a shared cache keeps it a minute, and five
 * more served stale while it revalidates.
 */
export const PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
const PRIVATE_CACHE_CONTROL = "private, no-cache";

/** Whether a Content-Type header names an HTML page. */
export function isHtmlType(contentType: unknown): boolean {
  return String(contentType ?? "").startsWith("text/html");
}

function isHtml(reply: FastifyReply): boolean {
  return isHtmlType(reply.getHeader("content-type"));
}

/**
 * The Cache-Control a shared cache may store this answer under, or undefined when the answer is
 * not publicly cacheable (it then streams through untouched). Only anonymous GETs answered 200
 * qualify: API and feed routes that declare `config.cacheSeconds`, and pages whose route did not
 * set a Cache-Control of its own.
 */
function publicCacheControl(request: FastifyRequest, reply: FastifyReply): string | undefined {
  if (request.method !== "GET" || reply.statusCode !== 200 || request.user) return undefined;
  const seconds = reply.routeOptions.config?.cacheSeconds;
  if (seconds !== undefined) return `public, max-age=${seconds}`;
  if (isHtml(reply) && !reply.hasHeader("cache-control")) return PAGE_CACHE_CONTROL;
  return undefined;
}

async function toBuffer(payload: unknown): Promise<Buffer | null> {
  if (payload === null || payload === undefined) return null;
  if (typeof payload === "string") return Buffer.from(payload);
  if (Buffer.isBuffer(payload)) return payload;
  if (
    payload instanceof Readable ||
    (typeof payload === "object" && Symbol.asyncIterator in payload)
  ) {
    const chunks: Buffer[] = [];
    for await (const chunk of payload as AsyncIterable<Buffer | string>) {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    }
    return Buffer.concat(chunks);
  }
  return null;
}

/**
 * A weak ETag over the body with this response's CSP nonce blanked out: the nonce is new on every
 * render, the content is not, so an unchanged answer keeps its ETag and revalidates to a 304.
 */
function etagOf(body: Buffer, nonce: string): string {
  return etagOfParts(splitAtNonce(body, nonce));
}

function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers["if-none-match"];
  return !!header && header.split(",").some((candidate) => candidate.trim() === etag);
}

function notModified(reply: FastifyReply) {
  reply.code(304);
  reply.removeHeader("content-length");
  reply.removeHeader("content-encoding");
  // The browser keeps the policy stored with the body it already has, which admits that body's
  // scripts; a fresh policy here could admit another render's.
  reply.removeHeader("content-security-policy");
  return "";
}

/**
 * Cache-Control, ETag, Vary and 304 (docs/decisions/0027, 0049). Registered after the security
 * headers (whose policy it may drop from a 304) and before the page cache and compression.
 *
 * - Signed-in pages are `private, no-cache` and stream.
 * - Anonymous pages stream as React renders them. One served by the page cache
 *   (server/plugins/page-cache.ts) carries the stored page's ETag and answers 304 when it matches.
 * - Calls and feeds that declare `config.cacheSeconds` are buffered for their ETag.
 * - A publicly cacheable answer that sets a cookie — the first visit's XSRF-TOKEN, a cleared
 *   session — is `private, no-cache` instead of public, so no shared cache hands one visitor's
 *   cookie, or a page made for it, to another.
 * - Everything else streams through untouched.
 */
export const httpCachePlugin = fp(
  async (app) => {
    app.addHook("onSend", async (request, reply, payload) => {
      const cacheControl = publicCacheControl(request, reply);
      if (cacheControl === undefined) {
        if (request.method === "GET" && reply.statusCode === 200 && request.user && isHtml(reply)) {
          reply.header("cache-control", PRIVATE_CACHE_CONTROL);
        }
        return payload;
      }
      reply.header(
        "cache-control",
        reply.hasHeader("set-cookie") ? PRIVATE_CACHE_CONTROL : cacheControl,
      );
      reply.header("vary", "Cookie, Authorization, Accept-Encoding");

      if (cacheControl === PAGE_CACHE_CONTROL) {
        // A page: its ETag, if any, is the page cache's; the body streams on.
        const etag = reply.getHeader("etag");
        if (typeof etag === "string" && matches(request, etag)) return notModified(reply);
        return payload;
      }

      const body = await toBuffer(payload);
      if (!body) return payload;
      const etag = etagOf(body, request.cspNonce);
      reply.header("etag", etag);
      if (matches(request, etag)) return notModified(reply);
      return body;
    });
  },
  { name: "http-cache" },
);
