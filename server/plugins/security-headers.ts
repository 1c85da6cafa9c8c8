import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import helmet from "@fastify/helmet";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * Helmet's headers, a Content-Security-Policy on every response, and validators for cacheable
 * answers.
 *
 * Pages get a hash-based policy: the SHA-256 of each inline script React Router wrote is computed
 * from the finished HTML. Unlike a per-response nonce, this keeps an anonymous page's bytes the
 * same from one request to the next, so its ETag holds and a 304 stays consistent with the policy.
 */

function policy(scriptSources: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSources}`,
    // Inline style attributes (sliders, carousels) need 'unsafe-inline'; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self' https://api.stripe.com${dev ? " ws: wss:" : ""}`,
    "frame-src https://js.stripe.com https://hooks.stripe.com",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const body = match[1]!;
    if (!body) continue;
    hashes.add(`'sha256-${createHash("sha256").update(body).digest("base64")}'`);
  }
  return [...hashes];
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

function etagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
}

function cacheableAnswer(request: FastifyRequest, reply: FastifyReply): number | undefined {
  if (request.method !== "GET" || reply.statusCode !== 200) return undefined;
  if (request.user) return undefined;
  return reply.routeOptions.config?.cacheSeconds;
}

export async function registerSecurityHeaders(app: FastifyInstance, options: { dev: boolean }) {
  const { dev } = options;
  await app.register(helmet, {
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: "same-site" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const type = String(reply.getHeader("content-type") ?? "");
    const isHtml = type.startsWith("text/html");
    if (!isHtml) {
      reply.header("content-security-policy", policy("'self'", dev));
      const seconds = cacheableAnswer(request, reply);
      if (seconds === undefined) return payload;
      const body = await toBuffer(payload);
      if (!body) return payload;
      return answerWithValidators(request, reply, body, `public, max-age=${seconds}`);
    }

    const body = await toBuffer(payload);
    if (!body) return payload;
    const html = body.toString("utf8");
    const scripts = dev
      ? "'self' 'unsafe-inline' 'unsafe-eval'"
      : ["'self'", ...inlineScriptHashes(html), "https://js.stripe.com"].join(" ");
    reply.header("content-security-policy", policy(scripts, dev));
    if (request.method === "GET" && reply.statusCode === 200) {
      if (request.user) {
        reply.header("cache-control", "private, no-cache");
      } else if (!reply.getHeader("cache-control")) {
        return answerWithValidators(
          request,
          reply,
          body,
          "public, max-age=60, stale-while-revalidate=300",
        );
      }
    }
    return body;
  });
}

function answerWithValidators(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Buffer,
  cacheControl: string,
) {
  const etag = etagOf(body);
  reply.header("etag", etag);
  if (!reply.getHeader("cache-control")) reply.header("cache-control", cacheControl);
  reply.header("vary", "Cookie, Authorization, Accept-Encoding");
  const match = request.headers["if-none-match"];
  if (match && match.split(",").some((m) => m.trim() === etag)) {
    reply.code(304);
    reply.removeHeader("content-length");
    return "";
  }
  return body;
}
