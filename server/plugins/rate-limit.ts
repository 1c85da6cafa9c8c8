import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import type { Db } from "../../db/index.ts";
import { postgresRateLimitStore } from "./rate-limit-store.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Group allowances a route checks besides its own `rateLimit` (see RouteRateLimit.group). */
    groupLimits?: RouteRateLimit[];
  }
}

interface Allowance {
  max: number;
  timeWindow: string;
}

export interface RouteRateLimit extends Allowance {
  keyGenerator?: (request: FastifyRequest) => string;
  /**
   * A second allowance on the same call, counted per client address across accounts, for limits
   * keyed by account (`byAccount`): one person with many accounts, or many addresses, meets one.
   */
  perAddress?: Allowance;
  /**
   * Routes that name the same group share one allowance instead of one each, counted per client
   * address, or by `keyGenerator` (and `perAddress`) when given: a JSON call and the page form
   * that runs the same service (docs/decisions/0079) are one door.
   * A route may check several groups through its config's `groupLimits` (the pages' one route).
   */
  group?: string;
  /** Requests this returns true for are not counted (a page route counts only its form's posts). */
  allowList?: (request: FastifyRequest) => boolean | Promise<boolean>;
  /**
   * Checked once the body has arrived (preValidation) instead of on the request: `allowList` may
   * then read a page form's fields, which the CSRF plugin has read by then (server/plugins/csrf.ts),
   * so that one page with two forms counts each form's posts in its own group.
   */
  afterBody?: boolean;
}

/** The client's address as limits count it: an IPv6 address by its /64, like the plugin does. */
export function clientAddress(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}

/**
 * Counts a call per signed-in account, whatever address it comes from; a request without a session
 * (refused by the call anyway) counts against its address.
 */
export function byAccount(request: FastifyRequest): string {
  return request.user ? `user:${request.user.id}` : `ip:${clientAddress(request)}`;
}

const TEN_MINUTES = "10 minutes";

/**
 * Limits per route (docs/decisions/0007-rate-limits.md). Sign-in and mail-sending calls count per
 * client address, never per account alone, so nobody can lock another person out by failing to
 * sign in as them. Calls that need a session count per account, and likes and follows per address
 * too (a one-person vote farm from one address meets the address's allowance).
 */
export const RATE_LIMITS = {
  /**
   * `POST /api/signin` (the delete-account page's sign-in too) and the login page's form: one
   * count per address for both. Guesses at one account from many addresses meet the per-account
   * limit of core/auth/sign-in-attempts.ts.
   */
  signin: { max: 10, timeWindow: "15 minutes", group: "signin" },
  /**
   * The old password of a change is checked like a sign-in, on a count of its own, shared with the
   * edit-profile page's posts (its change-password form and, on the same page, its profile form).
   */
  changePassword: { max: 10, timeWindow: "15 minutes", group: "change-password" },
  /** Each of these is shared by its JSON call and its page's form (docs/decisions/0079). */
  signup: { max: 5, timeWindow: "1 hour", group: "signup" },
  forgotPassword: { max: 5, timeWindow: "1 hour", group: "forgot-password" },
  resetPassword: { max: 5, timeWindow: "1 hour", group: "reset-password" },
  resendConfirmation: { max: 5, timeWindow: "1 hour", group: "resend-confirmation" },
  /**
   * Asking to change one's address mails the new one and checks the current password: per
   * account, and per address across accounts, shared with Edit profile's "Change email address"
   * form. Using the mailed link counts per address, shared with its page's form.
   */
  emailChange: {
    max: 5,
    timeWindow: "1 hour",
    keyGenerator: byAccount,
    perAddress: { max: 10, timeWindow: "1 hour" },
    group: "email-change",
  },
  confirmEmailChange: { max: 10, timeWindow: "1 hour", group: "confirm-email-change" },
  /** `POST /api/contact_us` and the Contact Us form posted to its page: one count per address. */
  contact: { max: 5, timeWindow: "1 hour", group: "contact" },
  /**
   * `POST /api/save_deal`, `/api/save_discussion` and the Submit Deals page's two forms: each
   * kind of post one count per address, its call's and its form's.
   */
  postDeal: { max: 10, timeWindow: "1 hour", group: "post-deal" },
  postDiscussion: { max: 10, timeWindow: "1 hour", group: "post-discussion" },
  /**
   * `POST /api/link_preview` (record 0110): each call fetches a page and may copy a picture, for
   * one member, so per account, and per address across accounts. A member tries a few links per
   * deal; 30 in ten minutes is a busy poster's, not a crawler's.
   */
  linkPreview: {
    max: 30,
    timeWindow: TEN_MINUTES,
    keyGenerator: byAccount,
    perAddress: { max: 60, timeWindow: TEN_MINUTES },
  },
  /** `POST /api/product_add_comment` and the post pages' comment and reply forms, per account. */
  comment: { max: 30, timeWindow: TEN_MINUTES, keyGenerator: byAccount, group: "comment" },
  social: { max: 20, timeWindow: "15 minutes" },
  /** Likes, unlikes and taking one back: one call, one counter. */
  reaction: {
    max: 30,
    timeWindow: TEN_MINUTES,
    keyGenerator: byAccount,
    perAddress: { max: 60, timeWindow: TEN_MINUTES },
  },
  /**
   * `POST /api/comment_like` and the like buttons posted to the post pages (record 0092): per
   * account and per address, like votes on posts, but one group, so the page's form counts too.
   */
  commentLike: {
    max: 60,
    timeWindow: TEN_MINUTES,
    keyGenerator: byAccount,
    perAddress: { max: 120, timeWindow: TEN_MINUTES },
    group: "comment-like",
  },
  /**
   * Reports: per account, and per address too, so that one person's accounts on one address meet
   * one allowance (reports from several members hide an item automatically). `POST /api/report`
   * and the report forms posted to the post pages and profiles count together.
   */
  report: {
    max: 20,
    timeWindow: "1 hour",
    keyGenerator: byAccount,
    perAddress: { max: 40, timeWindow: "1 hour" },
    group: "report",
  },
  /** Worked / Didn't work, Still works (record 0038): per account and per address, like votes. */
  freshness: {
    max: 30,
    timeWindow: TEN_MINUTES,
    keyGenerator: byAccount,
    perAddress: { max: 60, timeWindow: TEN_MINUTES },
  },
  /**
   * Asking to be verified as an educator mails a link or files a note: one count per account and
   * per address for both ways of asking, their JSON calls and the verification page's forms
   * (docs/decisions/0041-verified-educators.md; the service allows a few requests a day besides).
   */
  educatorRequest: {
    max: 5,
    timeWindow: "1 hour",
    keyGenerator: byAccount,
    perAddress: { max: 10, timeWindow: "1 hour" },
    group: "educator-request",
  },
  /** `POST /api/wishlist_submit` and the new-wishlist page's form: counted like a request. */
  wishlistSubmit: {
    max: 5,
    timeWindow: "1 hour",
    keyGenerator: byAccount,
    perAddress: { max: 10, timeWindow: "1 hour" },
    group: "wishlist-submit",
  },
  /** Follow and UN FOLLOW. */
  follow: {
    max: 20,
    timeWindow: TEN_MINUTES,
    keyGenerator: byAccount,
    perAddress: { max: 40, timeWindow: TEN_MINUTES },
  },
  /**
   * `GET /api/my_data` reads every table that names the member: a few downloads an hour per
   * account (docs/decisions/0084-download-my-data.md).
   */
  myData: { max: 5, timeWindow: "1 hour", keyGenerator: byAccount },
  /**
   * Push on or off for a device (docs/decisions/0109-push-alerts.md): each subscribe resolves the
   * endpoint's host, so a member's presses are bounded; a browser renewing its subscription is
   * one call.
   */
  push: { max: 20, timeWindow: TEN_MINUTES, keyGenerator: byAccount, group: "push" },
} satisfies Record<string, RouteRateLimit>;

/** "1 minute", "10 minutes", "2 hours": how long to wait, as the plugin words it. */
function waitFor(seconds: number): string {
  const [unit, size] =
    seconds >= 3600 ? ["hour", 3600] : seconds >= 60 ? ["minute", 60] : ["second", 1];
  const count = Math.max(1, Math.round(seconds / size));
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

function tooManyRequests(after: string) {
  return {
    statusCode: 429,
    status: false,
    message: `Too many requests. Please try again in ${after}.`,
  };
}

/**
 * Where the counters live: in PostgreSQL whenever the site runs on it (migration 026), so that every
 * process on the database, on this machine or another, counts the same hits (docs/decisions/0076);
 * in this process ("memory") on the embedded database, which one process opens.
 */
export type RateLimitStore = { kind: "memory" } | { kind: "postgres"; db: Db };

/** Registers the limiter unless RATE_LIMIT=off; routes opt in through their config. */
export const rateLimitPlugin = fp<{ enabled: boolean; store: RateLimitStore }>(
  async (app, options) => {
    if (!options.enabled) return;
    // Before the plugin's own hook sees the route: a grouped route's allowance is taken from the
    // plugin, which would count it per route, and checked by the group's one limiter instead.
    const groupLimiters = new Map<string, RateLimiter[]>();
    app.addHook("onRoute", (route) => {
      const config = route.config as
        { rateLimit?: RouteRateLimit | false; groupLimits?: RouteRateLimit[] } | undefined;
      const limit = config?.rateLimit;
      const grouped = [...(limit && limit.group ? [limit] : []), ...(config?.groupLimits ?? [])];
      if (!grouped.length) return;
      if (limit && limit.group) route.config = { ...route.config, rateLimit: false };
      for (const groupLimit of grouped) {
        const { group, allowList, afterBody } = groupLimit;
        if (!group) continue;
        // Routes are added after the plugin below is registered, so createRateLimit exists by now.
        let limiters = groupLimiters.get(group);
        if (!limiters) {
          limiters = groupLimitersOf(app, group, groupLimit);
          groupLimiters.set(group, limiters);
        }
        for (const limiter of limiters) addLimitCheck(route, limiter, allowList, afterBody);
      }
    });
    const { store } = options;
    await app.register(rateLimit, {
      global: false,
      // A shared store that cannot be reached lets the request through rather than failing it.
      ...(store.kind === "postgres"
        ? { store: postgresRateLimitStore(store.db), skipOnError: true }
        : {}),
      errorResponseBuilder: (_request, context) => tooManyRequests(context.after),
    });

    // The plugin runs one limit per route: a route's per-address allowance is a second limiter,
    // checked after the first, with the same 429 answer and Retry-After header.
    app.addHook("onRoute", (route) => {
      const perAddress = (route.config as { rateLimit?: RouteRateLimit } | undefined)?.rateLimit
        ?.perAddress;
      if (!perAddress) return;
      const routeKey = `${route.method}${route.url}`;
      const limiter = app.createRateLimit({
        ...perAddress,
        // The PostgreSQL store sees one key space for every limiter made this way.
        keyGenerator: (request) => `${routeKey}:address:${clientAddress(request)}`,
      });
      addLimitCheck(route, limiter);
    });
  },
  { name: "rate-limits" },
);

type RateLimiter = ReturnType<FastifyInstance["createRateLimit"]>;

/**
 * A group's limiters: its allowance, counted by its key (the client's address unless the limit
 * names another, such as `byAccount`), and its per-address allowance when it has one.
 */
function groupLimitersOf(app: FastifyInstance, group: string, limit: RouteRateLimit) {
  const { max, timeWindow, keyGenerator, perAddress } = limit;
  const limiters = [
    app.createRateLimit({
      max,
      timeWindow,
      keyGenerator: keyGenerator
        ? (request) => `group:${group}:${keyGenerator(request)}`
        : (request) => `group:${group}:address:${clientAddress(request)}`,
    }),
  ];
  if (perAddress) {
    limiters.push(
      app.createRateLimit({
        ...perAddress,
        keyGenerator: (request) => `group:${group}:per-address:${clientAddress(request)}`,
      }),
    );
  }
  return limiters;
}

/**
 * Checks `limiter` on every request of `route` after its other onRequest hooks (or, `afterBody`,
 * its preValidation hooks), with the plugin's own 429 answer and Retry-After header; requests
 * `skip` returns true for are not counted.
 */
function addLimitCheck(
  route: RouteOptions,
  limiter: RateLimiter,
  skip?: (request: FastifyRequest) => boolean | Promise<boolean>,
  afterBody = false,
) {
  const check = async (request: FastifyRequest, reply: FastifyReply) => {
    if (skip && (await skip(request))) return;
    const limit = await limiter(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    reply.header("retry-after", limit.ttlInSeconds);
    throw tooManyRequests(waitFor(limit.ttlInSeconds));
  };
  if (afterBody) route.preValidation = [...[route.preValidation ?? []].flat(), check];
  else route.onRequest = [...[route.onRequest ?? []].flat(), check];
}
