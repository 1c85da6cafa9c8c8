import { randomBytes, timingSafeEqual } from "node:crypto";
import fp from "fastify-plugin";
import { SESSION_COOKIE, XSRF_COOKIE, XSRF_HEADER } from "../../core/constants.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The request's XSRF token: the cookie's, or the one this response sets. */
    csrfToken: string;
  }
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function same(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/**
 * Double-submit cookie (DESIGN.md): any response to a request without an XSRF-TOKEN cookie sets
 * one; an unsafe request that carries the session cookie must echo it in X-XSRF-TOKEN, else 403.
 * Bearer-token calls carry no ambient credentials and are exempt.
 */
export const csrfPlugin = fp<{ secureCookies: boolean }>(
  async (app, { secureCookies }) => {
    app.decorateRequest("csrfToken", "");
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
      if (request.viaBearer) return;
      if (!request.cookies[SESSION_COOKIE]) return;
      const header = request.headers[XSRF_HEADER];
      if (typeof header !== "string" || !existing || !same(header, existing)) {
        return reply.code(403).type("application/json").send({
          status: false,
          message: "Missing or invalid XSRF token. Reload the page and try again.",
        });
      }
    });
  },
  { name: "csrf", dependencies: ["@fastify/cookie", "session"] },
);
