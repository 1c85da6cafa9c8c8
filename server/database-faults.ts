import type { FastifyBaseLogger } from "fastify";
import fp from "fastify-plugin";
import { data } from "react-router";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  createDatabaseProbe,
  isDatabaseUnavailable,
  type DatabaseProbe,
} from "../db/faults.ts";
import { endForGoneClient, isClientGone } from "./client-gone.ts";
import type { Db } from "../db/index.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Whether the database answers (for /api/health). */
    database: DatabaseProbe;
  }
}

/** The page a browser gets when the database fails before React Router could render one. */
const UNAVAILABLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Temporarily unavailable</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">
<h1>Temporarily unavailable</h1><p>${DATABASE_UNAVAILABLE_MESSAGE}</p><p><a href="">Try again</a></p>
</body></html>`;

/**
 * How the server answers while the database is unreachable (docs/decisions/0023): every 503 carries
 * Retry-After; a failure outside the JSON API and outside a loader (a hook such as the session
 * lookup) answers the small page above instead of a 500. The API's own error handler answers JSON
 * (server/api/errors.ts) and loaders get theirs from `servicesForPages`.
 */
export const databaseFaultsPlugin = fp<{ db: Db }>(
  async (app, { db }) => {
    app.decorate("database", createDatabaseProbe(db));

    app.addHook("onSend", async (_request, reply, payload) => {
      if (reply.statusCode === 503 && !reply.hasHeader("retry-after")) {
        reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
      }
      return payload;
    });

    app.setErrorHandler((error, request, reply) => {
      if (isClientGone(error, request)) return endForGoneClient(request, reply);
      if (!isDatabaseUnavailable(error)) {
        // A client's mistake outside the API (a page's rate limit throws a plain { statusCode } object)
        // keeps its status; anything else goes on to Fastify's default handler, as before.
        const status = (error as { statusCode?: unknown } | null)?.statusCode;
        if (typeof status === "number" && status >= 400 && status < 500) {
          return reply
            .code(status)
            .send(error instanceof Error ? { message: error.message } : error);
        }
        throw error;
      }
      request.log.warn({ err: error }, "database unavailable");
      return reply.code(503).type("text/html; charset=utf-8").send(UNAVAILABLE_PAGE);
    });
  },
  { name: "database-faults" },
);

/**
 * The services as loaders and actions receive them: a "database unavailable" error becomes a
 * thrown 503 response, which React Router renders as the root ErrorBoundary's 503 page (a plain
 * Error would be a 500 page, and reach the browser only as "Unexpected Server Error").
 */
export function servicesForPages<T extends object>(
  services: T,
  log: Pick<FastifyBaseLogger, "warn">,
): T {
  const translate = (error: unknown): never => {
    if (!isDatabaseUnavailable(error)) throw error;
    log.warn({ err: error }, "database unavailable");
    throw data(
      { message: DATABASE_UNAVAILABLE_MESSAGE },
      { status: 503, statusText: "Service Unavailable" },
    );
  };
  // Every function reachable from the services (services.home.recentPage, services.accounts.oauth.begin…),
  // wrapped once on first use.
  const wrappers = new WeakMap<object, unknown>();
  const wrap = (value: unknown, owner: object): unknown => {
    if (typeof value !== "object" && typeof value !== "function") return value;
    if (value === null) return value;
    if (!wrappers.has(value)) {
      wrappers.set(
        value,
        typeof value === "function"
          ? (...args: unknown[]) => {
              try {
                const result: unknown = Reflect.apply(value, owner, args);
                return result instanceof Promise ? result.catch(translate) : result;
              } catch (error) {
                return translate(error);
              }
            }
          : new Proxy(value, {
              get(target, key) {
                const inner: unknown = Reflect.get(target, key);
                const own = Reflect.getOwnPropertyDescriptor(target, key);
                // A proxy must hand out a frozen property unchanged.
                return own && !own.configurable && !own.writable ? inner : wrap(inner, target);
              },
            }),
      );
    }
    return wrappers.get(value);
  };
  return wrap(services, services) as T;
}
