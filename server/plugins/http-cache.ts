import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A public, cacheable GET answer: Cache-Control max-age in seconds, ETag and 304. */
    cacheSeconds?: number;
  }
}

/** Anonymous pages: a minute fresh, five more served stale while a CDN revalidates. */
const PAGE_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=300";
const PRIVATE_CACHE_CONTROL = "private, no-cache";

function isHtml(reply: FastifyReply): boolean {
  return String(reply.getHeader("content-type") ?? "").startsWith("text/html");
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
 * render, the content is not, so an unchanged page keeps its ETag and revalidates to a 304.
 */
function etagOf(body: Buffer, nonce: string): string {
  const hash = createHash("sha1");
  // The bytes between the nonce's occurrences, hashed in place: decoding a page to a string to
  // drop the nonce cost more than rendering its cards.
  let from = 0;
  if (nonce) {
    for (
      let at = body.indexOf(nonce, 0, "latin1");
      at !== -1;
      at = body.indexOf(nonce, from, "latin1")
    ) {
      hash.update(body.subarray(from, at));
      from = at + nonce.length;
    }
  }
  hash.update(from === 0 ? body : body.subarray(from));
  return `W/"${hash.digest("base64url").slice(0, 27)}"`;
}

function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers["if-none-match"];
  return !!header && header.split(",").some((candidate) => candidate.trim() === etag);
}

/**
 * Cache-Control, ETag, Vary and 304 (docs/decisions/0027). Registered after the security headers
 * (whose policy it may drop from a 304) and before compression (the ETag is over the plain body).
 *
 * - Signed-in pages are `private, no-cache` and stream.
 * - Publicly cacheable answers (see publicCacheControl) are buffered for their ETag. One that sets
 *   a cookie — the first visit's XSRF-TOKEN, a cleared session — is `private, no-cache` instead of
 *   public, so no shared cache hands one visitor's cookie, or a page made for it, to another.
 * - Everything else streams through untouched.
 */
export async function registerHttpCache(app: FastifyInstance) {
  app.addHook("onSend", async (request, reply, payload) => {
    const cacheControl = publicCacheControl(request, reply);
    if (cacheControl === undefined) {
      if (request.method === "GET" && reply.statusCode === 200 && request.user && isHtml(reply)) {
        reply.header("cache-control", PRIVATE_CACHE_CONTROL);
      }
      return payload;
    }

    const body = await toBuffer(payload);
    if (!body) return payload;
    const etag = etagOf(body, request.cspNonce);
    reply.header("etag", etag);
    reply.header(
      "cache-control",
      reply.hasHeader("set-cookie") ? PRIVATE_CACHE_CONTROL : cacheControl,
    );
    reply.header("vary", "Cookie, Authorization, Accept-Encoding");
    if (matches(request, etag)) {
      reply.code(304);
      reply.removeHeader("content-length");
      // The browser keeps the policy stored with the body it already has, whose nonce matches
      // that body; a fresh policy here would carry a nonce the cached page does not.
      reply.removeHeader("content-security-policy");
      return "";
    }
    return body;
  });
}
