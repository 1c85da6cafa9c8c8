import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { OAUTH_PROVIDERS, type OAuthProviderName } from "../../core/people/accounts/schema.ts";
import type { SocialIntent } from "../../core/people/accounts/service.ts";
import { OAuthFailure, type AuthorizationFlow } from "../../core/auth/oauth.ts";
import {
  SUSPENSION_NOTICE_COOKIE,
  SUSPENSION_NOTICE_SECONDS,
  encodeSuspensionNotice,
} from "../../core/auth/suspension.ts";
import {
  DEFAULT_RETURN_PATH,
  safeReturnPath,
  withReturnPath,
} from "../../core/auth/return-path.ts";
import { DomainError, NotFoundError } from "../../core/errors.ts";
import type { Services } from "../../core/services.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";

/** Holds state, PKCE verifier and nonce between the redirect to the provider and its callback. */
export const OAUTH_FLOW_COOKIE = "oauthFlow";
const FLOW_COOKIE = OAUTH_FLOW_COOKIE;
const FLOW_TTL_SECONDS = 10 * 60;

interface StoredFlow extends AuthorizationFlow {
  intent: SocialIntent;
  /** The code of a mailed link that joins this provider identity to an existing account. */
  linkCode?: string;
  /** Where a sign-in returns to (`/auth/google?next=…`, record 0035), checked at both ends. */
  next?: string;
}

/** Where each outcome sends the browser; the pages show the spec's messages for the errors. */
const DESTINATIONS = {
  login: { done: "/", failed: "/login?social_error=failed" },
  delete: { done: "/delete-account?social=confirm", failed: "/delete-account?social_error=failed" },
  link: { done: "/user/profile", failed: "/login?social_error=link" },
} as const;

/** A suspended account's sign-in: /login shows the reason (core/auth/suspension.ts). */
const SUSPENDED = "/login?social_error=suspended";

/** A sign-in whose address has an account waits for its owner to confirm by mail. */
const LINK_MAILED = "/login?social_error=confirm_link";

const INTENTS: readonly SocialIntent[] = ["login", "delete", "link"];

function isProvider(value: string): value is OAuthProviderName {
  return (OAUTH_PROVIDERS as readonly string[]).includes(value);
}

function readFlow(request: FastifyRequest): StoredFlow | null {
  const raw = request.cookies[FLOW_COOKIE];
  if (!raw) return null;
  try {
    const flow = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Partial<StoredFlow>;
    if (
      typeof flow.provider === "string" &&
      isProvider(flow.provider) &&
      typeof flow.state === "string" &&
      typeof flow.codeVerifier === "string" &&
      typeof flow.nonce === "string" &&
      INTENTS.includes(flow.intent as SocialIntent) &&
      (flow.linkCode === undefined || typeof flow.linkCode === "string") &&
      (flow.next === undefined || typeof flow.next === "string")
    ) {
      return flow as StoredFlow;
    }
  } catch {
    // A damaged cookie is treated as a missing one.
  }
  return null;
}

/**
 * Google and Facebook sign-in for the web: `GET /auth/{provider}?intent=login|delete|link` and the
 * mailed `GET /auth/{provider}/link/{code}` send the browser to the provider;
 * `GET /auth/{provider}/callback` checks state, PKCE and nonce, signs in (creating or linking the
 * account as core/accounts decides) and sends it on.
 */
export const oauthRoutes: FastifyPluginAsync<{ services: Services }> = async (
  app,
  { services },
) => {
  const { accounts } = services;
  // Behind HTTPS (PUBLIC_URL https://, where the app trusts the proxy) the cookie is Secure.
  const cookieOptions = (request: FastifyRequest) => ({
    path: "/auth/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: request.protocol === "https",
  });

  /** A failed sign-in goes back to /login, keeping the return path for the next try. */
  function failedDestination(intent: SocialIntent, next?: string): string {
    const failed = DESTINATIONS[intent].failed;
    if (intent !== "login") return failed;
    const back = safeReturnPath(next);
    return back === DEFAULT_RETURN_PATH ? failed : `${failed}&next=${encodeURIComponent(back)}`;
  }

  function noStore(reply: FastifyReply) {
    return reply.header("cache-control", "no-store");
  }

  /** Sends the browser to the provider, keeping what the callback must match in a cookie. */
  async function startFlow(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: OAuthProviderName,
    intent: SocialIntent,
    linkCode?: string,
    next: string = DEFAULT_RETURN_PATH,
  ) {
    try {
      const { url, flow } = await accounts.oauth.begin(provider);
      const stored: StoredFlow = {
        ...flow,
        intent,
        ...(linkCode ? { linkCode } : {}),
        ...(next !== DEFAULT_RETURN_PATH ? { next } : {}),
      };
      reply.setCookie(FLOW_COOKIE, Buffer.from(JSON.stringify(stored)).toString("base64url"), {
        ...cookieOptions(request),
        maxAge: FLOW_TTL_SECONDS,
      });
      return reply.redirect(url.href);
    } catch (error) {
      if (!(error instanceof OAuthFailure)) throw error;
      request.log.warn(`${provider} sign-in could not start: ${error.message}`);
      return reply.redirect(failedDestination(intent, next));
    }
  }

  // intent=link (the account page's link action) needs a signed-in user.
  app.get<{ Params: { provider: string }; Querystring: { intent?: string; next?: string } }>(
    "/auth/:provider",
    { config: { rateLimit: RATE_LIMITS.social } },
    async (request, reply) => {
      const asked = request.query.intent as SocialIntent;
      const intent: SocialIntent = INTENTS.includes(asked) ? asked : "login";
      const { provider } = request.params;
      const next = intent === "login" ? safeReturnPath(request.query.next) : DEFAULT_RETURN_PATH;
      noStore(reply);
      if (!isProvider(provider) || !accounts.oauth.isAvailable(provider)) {
        return reply.redirect(failedDestination(intent, next));
      }
      if (intent === "link" && !request.user) {
        return reply.redirect(withReturnPath("/login", "/user/profile"));
      }
      return startFlow(request, reply, provider, intent, undefined, next);
    },
  );

  // The link mailed to an account's owner: only checked here, used at the callback, and only
  // with the same provider identity, so a mail scanner that fetches it changes nothing.
  app.get<{ Params: { provider: string; code: string } }>(
    "/auth/:provider/link/:code",
    { config: { rateLimit: RATE_LIMITS.social } },
    async (request, reply) => {
      const { provider, code } = request.params;
      noStore(reply);
      if (
        !isProvider(provider) ||
        !accounts.oauth.isAvailable(provider) ||
        !(await accounts.isProviderLinkUsable(provider, code))
      ) {
        return reply.redirect(DESTINATIONS.link.failed);
      }
      return startFlow(request, reply, provider, "link", code);
    },
  );

  app.get<{ Params: { provider: string } }>(
    "/auth/:provider/callback",
    { config: { rateLimit: RATE_LIMITS.social } },
    async (request, reply) => {
      noStore(reply);
      const flow = readFlow(request);
      reply.clearCookie(FLOW_COOKIE, cookieOptions(request));
      const intent = flow?.intent ?? "login";
      if (!flow || flow.provider !== request.params.provider) {
        return reply.redirect(failedDestination(intent, flow?.next));
      }
      try {
        const identity = await accounts.oauth.complete(request.publicUrl, flow);
        const context = {
          userAgent: String(request.headers["user-agent"] ?? ""),
          previousSessionId: request.user?.sessionId,
          currentUser: request.user,
        };
        const { token } = flow.linkCode
          ? await accounts.confirmProviderLink(flow.linkCode, identity, context)
          : await accounts.signInWithProvider(identity, intent, context);
        reply.setSessionCookie(token);
        const done =
          intent === "login" && !flow.linkCode
            ? safeReturnPath(flow.next)
            : DESTINATIONS[intent].done;
        return reply.redirect(done);
      } catch (error) {
        if (error instanceof OAuthFailure) {
          request.log.warn(`${flow.provider} sign-in failed: ${error.message}`);
        } else if (!(error instanceof DomainError)) {
          throw error;
        }
        if (error instanceof DomainError && error.details.confirmation_mail_sent === true) {
          return reply.redirect(LINK_MAILED);
        }
        if (error instanceof DomainError && error.details.suspended === true) {
          reply.setCookie(SUSPENSION_NOTICE_COOKIE, encodeSuspensionNotice(error.message), {
            path: "/login",
            httpOnly: true,
            sameSite: "lax",
            secure: request.protocol === "https",
            maxAge: SUSPENSION_NOTICE_SECONDS,
          });
          return reply.redirect(SUSPENDED);
        }
        const noAccount = error instanceof NotFoundError;
        return reply.redirect(
          noAccount ? "/delete-account?social_error=nodata" : failedDestination(intent, flow.next),
        );
      }
    },
  );
};
