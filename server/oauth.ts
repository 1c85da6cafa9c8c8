import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { OAUTH_PROVIDERS, type OAuthProviderName } from "../core/accounts/schema.ts";
import type { SocialIntent } from "../core/accounts/service.ts";
import { OAuthFailure, type AuthorizationFlow } from "../core/auth/oauth.ts";
import { DomainError, NotFoundError } from "../core/errors.ts";
import type { Services } from "../core/services.ts";
import { RATE_LIMITS } from "./plugins/rate-limit.ts";

/** Holds state, PKCE verifier and nonce between the redirect to the provider and its callback. */
const FLOW_COOKIE = "oauthFlow";
const FLOW_TTL_SECONDS = 10 * 60;

interface StoredFlow extends AuthorizationFlow {
  intent: SocialIntent;
}

/** Where each outcome sends the browser; the pages show the spec's messages for the errors. */
const DESTINATIONS = {
  login: { done: "/", failed: "/login?social_error=failed" },
  delete: { done: "/delete-account?social=confirm", failed: "/delete-account?social_error=failed" },
} as const;

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
      (flow.intent === "login" || flow.intent === "delete")
    ) {
      return flow as StoredFlow;
    }
  } catch {
    // A damaged cookie is treated as a missing one.
  }
  return null;
}

/**
 * Google and Facebook sign-in for the web: `GET /auth/{provider}?intent=login|delete` sends the
 * browser to the provider; `GET /auth/{provider}/callback` checks state, PKCE and nonce, signs in
 * (creating or linking the account as core/accounts decides) and sends it on.
 */
export function registerOAuth(app: FastifyInstance, services: Services) {
  const { accounts } = services;
  // Behind HTTPS (PUBLIC_URL https://, where the app trusts the proxy) the cookie is Secure.
  const cookieOptions = (request: FastifyRequest) => ({
    path: "/auth/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: request.protocol === "https",
  });

  function noStore(reply: FastifyReply) {
    return reply.header("cache-control", "no-store");
  }

  app.get<{ Params: { provider: string }; Querystring: { intent?: string } }>(
    "/auth/:provider",
    { config: { rateLimit: RATE_LIMITS.social } },
    async (request, reply) => {
      const intent: SocialIntent = request.query.intent === "delete" ? "delete" : "login";
      const { provider } = request.params;
      noStore(reply);
      if (!isProvider(provider) || !accounts.oauth.isAvailable(provider)) {
        return reply.redirect(DESTINATIONS[intent].failed);
      }
      try {
        const { url, flow } = await accounts.oauth.begin(provider);
        const stored: StoredFlow = { ...flow, intent };
        reply.setCookie(FLOW_COOKIE, Buffer.from(JSON.stringify(stored)).toString("base64url"), {
          ...cookieOptions(request),
          maxAge: FLOW_TTL_SECONDS,
        });
        return reply.redirect(url.href);
      } catch (error) {
        if (!(error instanceof OAuthFailure)) throw error;
        request.log.warn(`${provider} sign-in could not start: ${error.message}`);
        return reply.redirect(DESTINATIONS[intent].failed);
      }
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
        return reply.redirect(DESTINATIONS[intent].failed);
      }
      try {
        const callbackUrl = new URL(request.url, `${request.protocol}://${request.host}`);
        const identity = await accounts.oauth.complete(callbackUrl, flow);
        const { token } = await accounts.signInWithProvider(identity, intent, {
          userAgent: String(request.headers["user-agent"] ?? ""),
          previousSessionId: request.user?.sessionId,
        });
        reply.setSessionCookie(token);
        return reply.redirect(DESTINATIONS[intent].done);
      } catch (error) {
        if (error instanceof OAuthFailure) {
          request.log.warn(`${flow.provider} sign-in failed: ${error.message}`);
        } else if (!(error instanceof DomainError)) {
          throw error;
        }
        const noAccount = error instanceof NotFoundError;
        return reply.redirect(
          noAccount ? "/delete-account?social_error=nodata" : DESTINATIONS[intent].failed,
        );
      }
    },
  );
}
