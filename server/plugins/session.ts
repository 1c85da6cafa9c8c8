import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { SESSION_TTL_MS, findSessionUser, type CurrentUser } from "../../core/auth/sessions.ts";
import type { Db } from "../../db/index.ts";
import { PROBE_PATHS } from "../routes/probes.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user, from the session cookie or an `Authorization: Bearer` token. */
    user: CurrentUser | null;
    /** True when the session came from a bearer token (mobile apps), which CSRF does not concern. */
    viaBearer: boolean;
  }
  interface FastifyReply {
    setSessionCookie(token: string): FastifyReply;
    clearSessionCookie(): FastifyReply;
  }
}

/**
 * The token of `Authorization: Bearer <token>`. The scheme's name is case-insensitive (RFC 9110,
 * section 11.1), so `bearer` and `BEARER` name it too; spaces or tabs may follow it.
 */
export function bearerToken(request: Pick<FastifyRequest, "headers">): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^bearer[ \t]+(.*)$/is.exec(header) : null;
  return match?.[1]?.trim() || undefined;
}

/** Resolves the session of every request once, before any handler or loader runs. */
export const sessionPlugin = fp<{ db: Db; secureCookies: boolean; now: () => Date }>(
  async (app, { db, secureCookies, now }) => {
    app.decorateRequest("user", null);
    app.decorateRequest("viaBearer", false);

    // The XSRF cookie follows the session: bound to the new one, removed with an ended one
    // (server/plugins/csrf.ts).
    app.decorateReply("setSessionCookie", function (this: FastifyReply, token: string) {
      this.bindXsrfToSession(token);
      return this.setCookie(SESSION_COOKIE, token, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: secureCookies,
        maxAge: Math.floor(SESSION_TTL_MS / 1000),
      });
    });
    app.decorateReply("clearSessionCookie", function (this: FastifyReply) {
      this.bindXsrfToSession(null);
      return this.clearCookie(SESSION_COOKIE, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: secureCookies,
      });
    });

    app.addHook("onRequest", async (request, reply) => {
      if (request.url.startsWith("/assets/") || request.url.startsWith("/media/")) return;
      // Liveness and readiness touch no session (server/routes/probes.ts).
      if (PROBE_PATHS.test(request.url)) return;
      const bearer = bearerToken(request);
      const token = bearer ?? request.cookies[SESSION_COOKIE];
      if (!token) return;
      request.user = await findSessionUser(db, token, now());
      request.viaBearer = Boolean(bearer) && request.user !== null;
      // A cookie that no longer names a live session is removed.
      if (!request.user && !bearer) reply.clearSessionCookie();
    });
  },
  { name: "session", dependencies: ["@fastify/cookie"] },
);
