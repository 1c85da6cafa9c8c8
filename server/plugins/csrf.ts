import type { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { SESSION_TTL_MS } from "../../core/auth/sessions.ts";
import { readOrMakeSiteSecret } from "../../core/auth/site-secrets.ts";
import {
  XSRF_SECRET_NAME,
  isXsrfTokenValid,
  makeXsrfToken,
  sameToken,
  type XsrfBinding,
} from "../../core/auth/xsrf.ts";
import type { Db } from "../../db/index.ts";
import {
  MAX_UPLOAD_BYTES,
  SESSION_COOKIE,
  XSRF_COOKIE,
  XSRF_FIELD,
  XSRF_HEADER,
} from "../../core/constants.ts";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The visitor's XSRF token, for a form that posts without JavaScript: the cookie's when it is
     * valid for this browser's session, else a new one that this response sets as the cookie.
     * Only a response that asks for it (or starts a session) sets the cookie.
     */
    csrfToken(): string;
    /** A page post whose token is to be read from its form body (`_csrf`) once the body arrives. */
    csrfInForm: boolean;
    /** This request's XSRF state (made on first use; the session plugin may touch it first). */
    xsrfState: XsrfState | null;
  }
  interface FastifyReply {
    /**
     * This response starts the browser's session `sessionToken` (sign-in, social sign-in, OAuth)
     * or ends it (null): the XSRF cookie is replaced by one bound to the new session, or removed.
     */
    bindXsrfToSession(sessionToken: string | null): void;
  }
}

interface XsrfState {
  /** What the incoming cookie must be bound to: the session cookie the browser sent, if any. */
  checkBinding: XsrfBinding;
  /** The incoming XSRF cookie, when it is a token of this site bound to `checkBinding`. */
  incoming: string | null;
  /** What a token made for this response is bound to (changes when the session starts or ends). */
  issueBinding: XsrfBinding;
  /** The token this response's forms carry, once asked for or made. */
  token: string | null;
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
/** How much of a page form's body is read to find its token: a form, plus one image for multipart. */
const FORM_LIMITS = { urlencoded: 1024 * 1024, multipart: MAX_UPLOAD_BYTES + 1024 * 1024 };

const REFUSED = "Missing or invalid XSRF token. Reload the page and try again.";

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
 * Signed double-submit cookie (docs/decisions/0048-cookieless-anonymous-pages.md). The XSRF-TOKEN
 * cookie is set only when something needs it: a page whose form carries the token (its loader calls
 * `request.csrfToken()`), a response that starts a session (bound to it, beside the session cookie),
 * and any signed-in response whose cookie is missing or not bound to its session. Anonymous reads
 * set no cookie, so shared caches may keep them. A token is valid only when the site's secret
 * signed it for the session cookie the browser sends (core/auth/xsrf.ts).
 *
 * Unsafe requests: an unsafe JSON API call that carries the session cookie must echo the cookie in
 * X-XSRF-TOKEN, else 403; bearer-token calls carry no ambient credentials and are exempt. An unsafe
 * page request (a server-rendered form posted without JavaScript) must always echo it, with or
 * without a session, so no other site can sign a visitor in or out: in the header, or in the form's
 * `_csrf` field (urlencoded or multipart). Both are compared in constant time.
 */
export const csrfPlugin = fp<{ db: Db; secureCookies: boolean }>(
  async (app, { db, secureCookies }) => {
    // One secret for every process over this database, made at the first start.
    const secret = await readOrMakeSiteSecret(db, XSRF_SECRET_NAME);

    function stateOf(request: FastifyRequest): XsrfState {
      if (request.xsrfState) return request.xsrfState;
      const session = request.cookies[SESSION_COOKIE];
      const checkBinding = session ? session : null;
      const cookie = request.cookies[XSRF_COOKIE];
      const incoming = isXsrfTokenValid(secret, checkBinding, cookie) ? cookie! : null;
      return (request.xsrfState = {
        checkBinding,
        incoming,
        issueBinding: checkBinding,
        token: null,
      });
    }

    function setTokenCookie(reply: FastifyReply, token: string, bound: boolean) {
      reply.setCookie(XSRF_COOKIE, token, {
        path: "/",
        httpOnly: false, // read by the site's scripts to echo it
        sameSite: "lax",
        secure: secureCookies,
        // A session's token lives as long as its session cookie; a visitor's, as the browser does.
        ...(bound ? { maxAge: Math.floor(SESSION_TTL_MS / 1000) } : {}),
      });
    }

    /** The token of this response's forms: the valid incoming one, else a new one set now. */
    function tokenFor(request: FastifyRequest, reply: FastifyReply): string {
      const state = stateOf(request);
      if (state.token) return state.token;
      if (state.incoming && state.issueBinding === state.checkBinding) {
        return (state.token = state.incoming);
      }
      state.token = makeXsrfToken(secret, state.issueBinding);
      setTokenCookie(reply, state.token, state.issueBinding !== null);
      return state.token;
    }

    app.decorateRequest("csrfToken", function (this: FastifyRequest): string {
      throw new Error(`no XSRF token outside a request (${this.url})`);
    });
    app.decorateRequest("csrfInForm", false);
    app.decorateRequest("xsrfState", null);
    app.decorateReply(
      "bindXsrfToSession",
      function (this: FastifyReply, sessionToken: string | null) {
        const state = stateOf(this.request);
        state.issueBinding = sessionToken;
        if (sessionToken !== null) {
          state.token = makeXsrfToken(secret, sessionToken);
          setTokenCookie(this, state.token, true);
        } else {
          if (state.token || this.request.cookies[XSRF_COOKIE]) {
            this.clearCookie(XSRF_COOKIE, { path: "/", sameSite: "lax", secure: secureCookies });
          }
          // A form on this same response (the login page after an ended session) gets a new one.
          state.token = null;
        }
      },
    );

    app.addHook("onRequest", async (request, reply) => {
      request.csrfToken = () => tokenFor(request, reply);
      const state = stateOf(request);
      // A signed-in browser always holds a token bound to its session, for the site's scripts.
      if (request.user && !request.viaBearer && !state.incoming) tokenFor(request, reply);
      if (!UNSAFE.has(request.method)) return;
      // One-click unsubscribe (RFC 8058): mail clients POST the mail's link with no cookie and no
      // token. It acts on no session, only on its own signed token, and can only switch one kind
      // of mail off (docs/decisions/0044-notifications-and-unsubscribe.md).
      if (request.method === "POST" && isOneClickUnsubscribe(request.url)) return;
      const existing = state.incoming;
      const header = request.headers[XSRF_HEADER];
      const headerMatches = typeof header === "string" && !!existing && sameToken(header, existing);
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
      const expected = stateOf(request).incoming;
      if (!token || !expected || !sameToken(token, expected)) return refuse(request, reply);
      // React Router reads the form again from this copy.
      request.body = body;
    });
  },
  { name: "csrf", dependencies: ["@fastify/cookie", "session"] },
);
