import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import {
  MAX_UPLOAD_BYTES,
  SESSION_COOKIE,
  XSRF_COOKIE,
  XSRF_FIELD,
  XSRF_HEADER,
} from "../../core/constants.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The request's XSRF token: the cookie's, or the one this response sets. */
    csrfToken: string;
    /** A page post whose token is to be read from its form body (`_csrf`) once the body arrives. */
    csrfInForm: boolean;
  }
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
/** How much of a page form's body is read to find its token: a form, plus one image for multipart. */
const FORM_LIMITS = { urlencoded: 1024 * 1024, multipart: MAX_UPLOAD_BYTES + 1024 * 1024 };

const REFUSED = "Missing or invalid XSRF token. Reload the page and try again.";

function same(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

function isApiCall(request: FastifyRequest): boolean {
  return (
    request.url === "/api" || request.url.startsWith("/api/") || request.url.startsWith("/api?")
  );
}

/** `POST /unsubscribe?token=…`, the one address exempt from the XSRF check. */
function isOneClickUnsubscribe(url: string): boolean {
  return url === "/unsubscribe" || url.startsWith("/unsubscribe?");
}

function refuse(request: FastifyRequest, reply: FastifyReply) {
  reply.code(403);
  return isApiCall(request)
    ? reply.type("application/json").send({ status: false, message: REFUSED })
    : reply.type("text/plain; charset=utf-8").send(REFUSED);
}

class BodyTooLarge extends Error {}

/** Reads a page post's body (the raw stream React Router's content parser passes on), capped. */
async function readBody(raw: unknown, limit: number): Promise<Buffer> {
  if (Buffer.isBuffer(raw) || typeof raw === "string") {
    const body = Buffer.from(raw);
    if (body.length > limit) throw new BodyTooLarge();
    return body;
  }
  if (!raw || typeof (raw as Readable)[Symbol.asyncIterator] !== "function") return Buffer.alloc(0);
  const stream = raw as Readable;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > limit) {
      stream.destroy();
      throw new BodyTooLarge();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The `_csrf` field of a urlencoded or multipart body (parsed as a browser's fetch would), or "". */
async function formToken(body: Buffer, contentType: string): Promise<string> {
  try {
    const form = await new Response(new Uint8Array(body), {
      headers: { "content-type": contentType },
    }).formData();
    const value = form.get(XSRF_FIELD);
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}

/**
 * Double-submit cookie (DESIGN.md): any response to a request without an XSRF-TOKEN cookie sets
 * one. An unsafe JSON API call that carries the session cookie must echo it in X-XSRF-TOKEN, else
 * 403; bearer-token calls carry no ambient credentials and are exempt. An unsafe page request (a
 * server-rendered form posted without JavaScript) must always echo it, with or without a session,
 * so no other site can sign a visitor in or out: in the header, or in the form's `_csrf` field
 * (urlencoded or multipart). Both are compared in constant time.
 */
export const csrfPlugin = fp<{ secureCookies: boolean }>(
  async (app, { secureCookies }) => {
    app.decorateRequest("csrfToken", "");
    app.decorateRequest("csrfInForm", false);

    app.addHook("onRequest", async (request, reply) => {
      const existing = request.cookies[XSRF_COOKIE];
      if (existing && /^[A-Za-z0-9_-]{16,100}$/.test(existing)) {
        request.csrfToken = existing;
      } else {
        request.csrfToken = randomBytes(24).toString("base64url");
        reply.setCookie(XSRF_COOKIE, request.csrfToken, {
          path: "/",
          httpOnly: false, // read by the site's scripts to echo it
          sameSite: "lax",
          secure: secureCookies,
        });
      }
      if (!UNSAFE.has(request.method)) return;
      // One-click unsubscribe (RFC 8058): mail clients POST the mail's link with no cookie and no
      // token. It acts on no session, only on its own signed token, and can only switch one kind
      // of mail off (docs/decisions/0044-notifications-and-unsubscribe.md).
      if (request.method === "POST" && isOneClickUnsubscribe(request.url)) return;
      const header = request.headers[XSRF_HEADER];
      const headerMatches = typeof header === "string" && !!existing && same(header, existing);
      if (isApiCall(request)) {
        if (request.viaBearer || !request.cookies[SESSION_COOKIE] || headerMatches) return;
        return refuse(request, reply);
      }
      if (headerMatches) return;
      if (existing && FORM_TYPES.test(request.headers["content-type"] ?? "")) {
        request.csrfInForm = true; // checked in preValidation, when the body has arrived
        return;
      }
      return refuse(request, reply);
    });

    app.addHook("preValidation", async (request, reply) => {
      if (!request.csrfInForm) return;
      const contentType = request.headers["content-type"] ?? "";
      const limit = /multipart/i.test(contentType) ? FORM_LIMITS.multipart : FORM_LIMITS.urlencoded;
      let body: Buffer;
      try {
        body = await readBody(request.body, limit);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        return reply.code(413).type("text/plain; charset=utf-8").send("The form is too large.");
      }
      const token = await formToken(body, contentType);
      if (!token || !same(token, request.cookies[XSRF_COOKIE]!)) return refuse(request, reply);
      // React Router reads the form again from this copy.
      request.body = body;
    });
  },
  { name: "csrf", dependencies: ["@fastify/cookie", "session"] },
);
