import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import { fastifyReactRouter } from "@mcansh/react-router-fastify";
import { requestContext } from "#app-context";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import type { Config } from "../config/env.ts";
import { publicConfig } from "../config/public.ts";
import { MAX_UPLOAD_BYTES } from "../core/constants.ts";
import type { Deps } from "../core/deps.ts";
import { createMailer, type Mailer } from "../core/mail/mailer.ts";
import { createServices, type Services } from "../core/services.ts";
import type { Db } from "../db/index.ts";
import { registerApi } from "./api/index.ts";
import { registerFeeds } from "./feeds.ts";
import { registerOAuth } from "./oauth.ts";
import { csrfPlugin } from "./plugins/csrf.ts";
import { RATE_LIMITS, registerRateLimits } from "./plugins/rate-limit.ts";
import { registerSecurityHeaders } from "./plugins/security-headers.ts";
import { sessionPlugin } from "./plugins/session.ts";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

/** A sign-in posted by the login page's form (React Router's document or data request). */
function isPageSignIn(request: FastifyRequest): boolean {
  return request.method === "POST" && /^\/login(\.data)?(\?|$)/.test(request.url);
}

export interface BuildAppOptions {
  config: Config;
  db: Db;
  /** Replaces the SMTP/outbox mailer (tests pass one that talks to their own SMTP server). */
  mailer?: Mailer;
  now?: () => Date;
  /**
   * How pages are served: a Vite dev server (development), a loaded server build, "build" to import
   * build/server/index.js, or false for the JSON API alone (API tests).
   */
  pages?: { devServer: ViteDevServer } | { build: ServerBuild } | "build" | false;
  logger?: boolean;
}

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
  deps: Deps;
}

export async function buildApp(options: BuildAppOptions): Promise<BuiltApp> {
  const { config, db } = options;
  const dev = config.env === "development";
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: config.publicUrl.startsWith("https://"),
    return503OnClosing: true,
  });

  const deps: Deps = {
    db,
    config,
    mailer:
      options.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, "outbox"),
        log: (line) => app.log.info(line),
      }),
    mediaDir: path.join(config.dataDir, "media"),
    log: app.log,
    now: options.now ?? (() => new Date()),
  };
  const services = createServices(deps);
  const secureCookies = config.publicUrl.startsWith("https://");

  await app.register(cookie);
  await registerSecurityHeaders(app, { dev });
  await app.register(compress, { threshold: 1024 });
  await registerRateLimits(app, { enabled: config.rateLimit, redisUrl: config.redisUrl });
  await app.register(sessionPlugin, { db, secureCookies, now: deps.now });
  await app.register(csrfPlugin, { secureCookies });
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 40, fieldSize: 200 * 1024, parts: 45 },
  });

  await registerApi(app, services);
  await registerFeeds(app, services);
  registerOAuth(app, services);

  fs.mkdirSync(deps.mediaDir, { recursive: true });
  await app.register(async (media) => {
    await media.register(fastifyStatic, {
      root: deps.mediaDir,
      prefix: "/media/",
      decorateReply: false,
      index: false,
      maxAge: "7d",
      setHeaders: (reply) => reply.header("x-content-type-options", "nosniff"),
    });
  });

  if (options.pages) {
    const pages = options.pages;
    await app.register(fastifyReactRouter, {
      ...(pages === "build"
        ? { build: (await import(path.join(projectRoot, "build/server/index.js"))) as ServerBuild }
        : "devServer" in pages
          ? { devServer: pages.devServer }
          : { build: pages.build }),
      clientBuildDirectory: path.join(projectRoot, "build/client"),
      mode: dev ? "development" : "production",
      // The sign-in form posted without JavaScript counts like the API's sign-in.
      routeOptions: {
        config: { rateLimit: { ...RATE_LIMITS.signin, allowList: (r) => !isPageSignIn(r) } },
      },
      getLoadContext(request, reply) {
        const context = new RouterContextProvider();
        context.set(requestContext, {
          services,
          user: request.user,
          csrfToken: request.csrfToken,
          session: {
            start: (token) => void reply.setSessionCookie(token),
            end: () => void reply.clearSessionCookie(),
          },
          publicConfig: publicConfig(config),
          clientIp: request.ip,
          log: request.log,
        });
        return context;
      },
    });
  }

  return { app, services, deps };
}
