import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import { fastifyReactRouter } from "@mcansh/react-router-fastify";
import { requestContext } from "#app-context";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
} from "fastify";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type pg from "pg";
import type { ViteDevServer } from "vite";
import type { Config } from "../config/env.ts";
import { publicConfig } from "../config/public.ts";
import { FORM_INTENT_FIELD, MAX_UPLOAD_BYTES } from "../core/constants.ts";
import type { Deps } from "../core/deps.ts";
import { startChangeBroadcast } from "./change-broadcast.ts";
import { createChangeFeed } from "../core/cache/changes.ts";
import type { JobQueue } from "../core/jobs/queue.ts";
import { workSiteJobs } from "../core/jobs/site-jobs.ts";
import { mailerFor, type Mailer } from "../core/mail/mailer.ts";
import { createMailQueue } from "../core/mail/queue.ts";
import { createMediaStorage } from "../core/media/storage.ts";
import { createLogger } from "../core/log/logger.ts";
import { createServices, type Services } from "../core/services.ts";
import type { Db } from "../db/index.ts";
import { apiPlugin } from "./api/index.ts";
import { databaseFaultsPlugin, servicesForPages } from "./database-faults.ts";
import { csrfPlugin } from "./plugins/csrf.ts";
import { httpCachePlugin } from "./plugins/http-cache.ts";
import { pageRouteLabels } from "./metrics/page-routes.ts";
import { mediaPlugin, negotiateMediaUrl } from "./plugins/media.ts";
import { metricsPlugin } from "./plugins/metrics.ts";
import {
  doNotStorePage,
  onPageCacheHit,
  pageCachePlugin,
  pageRenderedFor,
} from "./plugins/page-cache.ts";
import { RATE_LIMITS, rateLimitPlugin, type RouteRateLimit } from "./plugins/rate-limit.ts";
import { securityHeadersPlugin } from "./plugins/security-headers.ts";
import { sessionPlugin } from "./plugins/session.ts";
import { answerClientError, canonicalRequest, publicUrlPlugin } from "./public-origin.ts";
import { REQUEST_ID_LOG_LABEL, requestIdFor, requestIdPlugin } from "./request-id.ts";
import { alertFeedRoutes } from "./routes/alert-feeds.ts";
import { appInstallRoutes } from "./routes/app-install.ts";
import { backupRoutes, type BackupRoutesOptions } from "./routes/backup.ts";
import { feedRoutes } from "./routes/feeds.ts";
import { goLinkRoutes } from "./routes/go-links.ts";
import { oauthRoutes } from "./routes/oauth.ts";
import { probeRoutes } from "./routes/probes.ts";
import { drainPlugin } from "./shutdown.ts";
import type { DatabaseReadiness } from "../db/readiness.ts";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));
/** The client build's files: hashed assets never change; the others (the icon) may. */
const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";
const FILE_CACHE_CONTROL = "public, max-age=3600";
/** The deal page and the educator post page, whose comment, like and report forms post to them. */
const POST_PAGES = "/(post|educator)/[^/?]+/[^/?]+";

/**
 * The page forms that count like their JSON call (docs/decisions/0079), by page: each shares its
 * call's allowance, and only its own posts (React Router's document or data request) are counted.
 * A page with several forms names each form's `intent` field (the post pages' comment and report
 * forms, Submit Deals' two tabs): those are counted once the CSRF plugin has read the body.
 */
const PAGE_FORM_LIMITS: [path: string, limit: RouteRateLimit, intent?: string][] = [
  ["/login", RATE_LIMITS.signin],
  ["/contact", RATE_LIMITS.contact],
  ["/register", RATE_LIMITS.signup],
  ["/forgotpassword", RATE_LIMITS.forgotPassword],
  ["/reset-password/[^/?]+", RATE_LIMITS.resetPassword],
  ["/verify", RATE_LIMITS.resendConfirmation],
  // Its first step signs in again, as POST /api/signin does. Every post counts: any post that is
  // not the Yes or No of its question is a sign-in (app/routes/delete-account.tsx).
  ["/delete-account", RATE_LIMITS.signin],
  // Only the exact intent "password" changes the password (app/routes/profile-edit.tsx).
  ["/user/profile-edit", RATE_LIMITS.changePassword, "password"],
  ["/user/profile-edit", RATE_LIMITS.emailChange, "email"],
  ["/confirm-email-change", RATE_LIMITS.confirmEmailChange],
  ["/user/verify-educator", RATE_LIMITS.educatorRequest],
  ["/user/wishlist/new", RATE_LIMITS.wishlistSubmit],
  [POST_PAGES, RATE_LIMITS.comment, "comment"],
  [POST_PAGES, RATE_LIMITS.report, "report"],
  [POST_PAGES, RATE_LIMITS.commentLike, "comment_like"],
  ["/profile/[^/?]+", RATE_LIMITS.report, "report"],
  ["/submitdeal", RATE_LIMITS.postDeal, "deal"],
  ["/submitdeal", RATE_LIMITS.postDiscussion, "discussion"],
];

/**
 * The `intent` field of a page form whose body the CSRF plugin has read; undefined when it has not
 * (the token came in the header, and the body is still a stream): such a post counts in every
 * group of its page.
 */
async function formIntent(request: FastifyRequest): Promise<string | undefined> {
  if (!Buffer.isBuffer(request.body)) return undefined;
  try {
    const form = await new Response(new Uint8Array(request.body), {
      headers: { "content-type": request.headers["content-type"] ?? "" },
    }).formData();
    const intent = form.get(FORM_INTENT_FIELD);
    return typeof intent === "string" ? intent : "";
  } catch {
    return "";
  }
}

function pageFormLimits(): RouteRateLimit[] {
  return PAGE_FORM_LIMITS.map(([path, limit, intent]) => {
    const post = new RegExp(`^${path}(\\.data)?(\\?|$)`);
    const isFormPost = (request: FastifyRequest) =>
      request.method === "POST" && post.test(request.url);
    if (intent === undefined) return { ...limit, allowList: (request) => !isFormPost(request) };
    return {
      ...limit,
      afterBody: true,
      allowList: async (request) => {
        if (!isFormPost(request)) return true;
        const posted = await formIntent(request);
        return posted !== undefined && posted !== intent;
      },
    };
  });
}

export interface BuildAppOptions {
  config: Config;
  db: Db;
  /** How /readyz asks the database, apart from `db`'s pool (the database handle's `readiness`). */
  readiness: DatabaseReadiness;
  /**
   * The process's job queue (core/jobs/site-jobs.ts), started and stopped by the caller: requests
   * queue work on it, and this process works its jobs too.
   */
  jobs: JobQueue;
  /** The pool under `db`, whose connections in use and waiting queries /metrics shows. */
  pool?: pg.Pool;
  /** Replaces the SMTP/outbox mailer the mail job uses (tests pass one of their own). */
  mailer?: Mailer;
  now?: () => Date;
  /**
   * How pages are served: a Vite dev server (development), a loaded server build, "build" to import
   * build/server/index.js, or false for the JSON API alone (API tests).
   */
  pages?: { devServer: ViteDevServer } | { build: ServerBuild } | "build" | false;
  logger?: boolean;
  /** Where log lines go instead of standard output (tests that read them). */
  logStream?: { write(line: string): void };
  /** Fields on every log line instead of pino's pid and hostname (server processes name their worker). */
  logBase?: Record<string, string | number>;
  /**
   * What `GET /api/admin/backup` backs up (server/routes/backup.ts); without it the call is not
   * served (tests' apps, which have no DATA_DIR of their own).
   */
  backup?: Pick<BackupRoutesOptions, "source" | "access">;
}

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
  deps: Deps;
}

/** The first `hops` addresses, counted from the socket towards the client, are proxies. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/**
 * Brotli for answers compressed as they are sent: quality 4 (@fastify/compress's choice, about
 * 1 ms for a home page), and a 256 kB window instead of brotli's default 4 MB. Every answer gets its
 * own encoder, and the big window's buffers, allocated anew for each one, cost 5–9 ms of
 * CPU per home page sent to a browser, more than rendering it; a page is smaller than the small
 * window, so its bytes are the same (docs/decisions/0066-compressing-responses.md).
 */
const BROTLI_FOR_RESPONSES = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
    [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
  },
};

export async function buildApp(options: BuildAppOptions): Promise<BuiltApp> {
  const { config, db } = options;
  const dev = config.env === "development";
  // The one logger of every process (core/log/logger.ts): JSON lines, secrets redacted.
  const logger: FastifyBaseLogger | undefined =
    options.logger === false
      ? undefined
      : createLogger({
          level: config.logLevel,
          ...(options.logBase ? { base: options.logBase } : {}),
          ...(options.logStream ? { stream: options.logStream } : {}),
        });
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    // A well-formed X-Request-Id is kept, otherwise one is made (server/request-id.ts).
    requestIdHeader: false,
    genReqId: requestIdFor,
    logController: new LogController({ requestIdLogLabel: REQUEST_ID_LOG_LABEL }),
    bodyLimit: 1024 * 1024,
    // Only TRUST_PROXY's proxies may say who the client is (rate limits key on request.ip).
    // Fastify refuses a bare hop count (it fails closed), so a count becomes a trust function.
    trustProxy:
      typeof config.trustProxy === "number" ? trustHops(config.trustProxy) : config.trustProxy,
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    // Before routing: every request is one for PUBLIC_URL's host, in origin form
    // (server/public-origin.ts); then a format-less image variant URL names its AVIF or WebP file,
    // as the request's Accept allows (docs/decisions/0064-negotiated-image-formats.md).
    rewriteUrl: canonicalRequest(config.publicUrl, negotiateMediaUrl),
  });
  // First, so that every answer carries the request's id and every line of it names the request.
  await app.register(requestIdPlugin);
  await app.register(publicUrlPlugin, { publicUrl: config.publicUrl });

  const { jobs } = options;
  const deps: Deps = {
    db,
    config,
    mail: createMailQueue(jobs, { db, publicUrl: config.publicUrl }),
    jobs,
    changes: createChangeFeed(app.log),
    media: createMediaStorage(config),
    log: app.log,
    now: options.now ?? (() => new Date()),
  };
  const services = createServices(deps);
  // Changes made by the other server processes on this database reach this one's caches.
  const broadcast = await startChangeBroadcast({
    changes: deps.changes,
    db,
    databaseUrl: config.databaseUrl,
    log: app.log,
  });
  if (broadcast) app.addHook("onClose", () => broadcast.close());
  // Views noted for pages served from the page cache are written before the database closes.
  app.addHook("onClose", () => services.posts.flushViews());
  await workSiteJobs(jobs, {
    db,
    mailer: options.mailer ?? mailerFor(config, (line) => app.log.info(line)),
    now: deps.now,
    log: app.log,
    changes: deps.changes,
    linkCheck: { allowLoopback: config.linkCheckAllowLoopback },
    push: { allowLoopback: config.pushAllowLoopback },
    publicUrl: config.publicUrl,
    media: deps.media,
    mediaBaseUrl: config.mediaBaseUrl,
  });
  const secureCookies = config.publicUrl.startsWith("https://");

  // One plugin style (docs/ARCHITECTURE.md): each part is registered; those whose hooks and
  // decorations serve every route are wrapped in fastify-plugin, routes stay encapsulated.
  await app.register(databaseFaultsPlugin, { db });
  // Connection: close while draining after SIGTERM, and the state /readyz reports (server/shutdown.ts).
  await app.register(drainPlugin);
  await app.register(cookie);
  await app.register(securityHeadersPlugin, {
    dev,
    https: secureCookies,
    mediaBaseUrl: config.mediaBaseUrl,
  });
  await app.register(httpCachePlugin);
  // Its answers follow the HTTP cache's (what is public) and precede compression (plain bytes).
  await app.register(pageCachePlugin, {
    changes: deps.changes,
    enabled: config.pageCache && !dev,
  });
  await app.register(compress, { threshold: 1024, brotliOptions: BROTLI_FOR_RESPONSES });
  await app.register(rateLimitPlugin, {
    enabled: config.rateLimit,
    // Every process on one PostgreSQL, on any machine, counts in the database (migration 026).
    store: config.databaseUrl ? { kind: "postgres", db } : { kind: "memory" },
  });
  await app.register(sessionPlugin, { db, secureCookies, now: deps.now });
  await app.register(csrfPlugin, { db, secureCookies });
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 40, fieldSize: 200 * 1024, parts: 45 },
  });

  await app.register(probeRoutes, { readiness: options.readiness });
  const pages = options.pages;
  const pageBuild =
    pages === "build"
      ? ((await import(path.join(projectRoot, "build/server/index.js"))) as ServerBuild)
      : pages && "build" in pages
        ? pages.build
        : undefined;
  // Before the routes, whose every answer it counts.
  await app.register(metricsPlugin, {
    sources: { pool: options.pool, jobs },
    token: config.metricsToken,
    ...(pageBuild ? { pageRoute: pageRouteLabels(pageBuild) } : {}),
  });

  await app.register(apiPlugin, { prefix: "/api", services });
  await app.register(feedRoutes, { services });
  // The installable app: manifest, icons, service worker, offline page (record 0108).
  await app.register(appInstallRoutes, { services });
  await app.register(goLinkRoutes, { services });
  await app.register(alertFeedRoutes, { services });
  await app.register(oauthRoutes, { services });
  if (options.backup) await app.register(backupRoutes, { ...options.backup, db, now: deps.now });

  await app.register(mediaPlugin, { prefix: "/media", media: deps.media, log: deps.log });

  if (pages) {
    const pageServices = servicesForPages(services, app.log);
    await app.register(fastifyReactRouter, {
      ...(pageBuild
        ? { build: pageBuild }
        : { devServer: (pages as { devServer: ViteDevServer }).devServer }),
      clientBuildDirectory: path.join(projectRoot, "build/client"),
      // The build writes each script and style sheet compressed beside it, brotli at quality 11
      // and gzip at level 9 (scripts/production-build.ts, docs/decisions/0054): sent as they are,
      // with Content-Encoding, which @fastify/compress leaves alone.
      staticOptions: {
        preCompressed: true,
        // Replaces the adapter's, which only sets the Cache-Control below. The file sent depends
        // on Accept-Encoding, which the adapter's @fastify/static (9.x) does not say in Vary.
        setHeaders(res, filePath) {
          const asset = filePath.startsWith(
            path.join(projectRoot, "build/client/assets") + path.sep,
          );
          res.setHeader("cache-control", asset ? ASSET_CACHE_CONTROL : FILE_CACHE_CONTROL);
          res.setHeader("vary", "Accept-Encoding");
        },
      },
      mode: dev ? "development" : "production",
      // A form posted to its page counts like its JSON call.
      routeOptions: { config: { rateLimit: false, groupLimits: pageFormLimits() } },
      getLoadContext(request, reply) {
        const context = new RouterContextProvider();
        context.set(requestContext, {
          services: pageServices,
          user: request.user,
          csrfToken: () => request.csrfToken(),
          cspNonce: request.cspNonce,
          session: {
            start: (token) => void reply.setSessionCookie(token),
            end: () => void reply.clearSessionCookie(),
          },
          publicConfig: publicConfig(config),
          clientIp: request.ip,
          doNotCache: () => doNotStorePage(request),
          renderedFor: (url) => pageRenderedFor(request, url),
          onPageCacheHit: (work) => onPageCacheHit(request, work),
          log: request.log,
        });
        return context;
      },
    });
  }

  return { app, services, deps };
}
