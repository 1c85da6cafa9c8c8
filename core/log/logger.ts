import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type Logger } from "pino";
import { SESSION_COOKIE, XSRF_COOKIE } from "../constants.ts";

/**
 * The one log format of every process: the server (Fastify's request logger is this logger), the
 * cluster primary, `npm run worker` and the commands write pino's JSON lines, one object a line,
 * at LOG_LEVEL (docs/decisions/0095-one-log-format.md). Secrets are kept out at the logger itself,
 * twice over: by key (pino's `redact`: headers, password and token fields, addresses), and by
 * content (`scrubSecrets` on every finished line: addresses, and the tokens that the site's links
 * carry in their paths and query strings), so a line that names a secret in its message, an error
 * or a URL loses it too.
 */

/** What replaces a value that is a secret. */
export const REDACTED = "[redacted]";
/** What replaces a mail address. */
export const REDACTED_EMAIL = "[email]";

/** Fields that hold a secret whatever their value: pino `redact` paths, at the top or one level down. */
const SECRET_KEYS = [
  "password",
  "old_password",
  "new_password",
  "confirm_password",
  "password_confirmation",
  "new_password_confirmation",
  "token",
  "access_token",
  "id_token",
  "refresh_token",
  "confirmation_code",
  "code_verifier",
  "cookie",
  "authorization",
  "email",
];

export const REDACTED_PATHS = [
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
  // A request or an answer logged whole: its headers carry the session and the XSRF token.
  ...["req.headers", "res.headers", "headers"].flatMap((at) => [
    `${at}.cookie`,
    `${at}.authorization`,
    `${at}["x-xsrf-token"]`,
    `${at}["set-cookie"]`,
    // The one-use token of `npm run backup` (core/backup/server-access.ts).
    `${at}["x-backup-token"]`,
  ]),
];

/** Query parameters whose value is a secret (mailed links, OAuth callbacks) or an address. */
const SECRET_PARAMETERS = [
  "token",
  "code",
  "state",
  "nonce",
  "code_verifier",
  "access_token",
  "id_token",
  "refresh_token",
  "password",
  "email",
];

/**
 * Path segments after which the next segment is a secret, from every URL of the site that carries
 * one (app/routes.ts, server/routes/oauth.ts, server/routes/alert-feeds.ts): a password reset
 * (`/reset-password/<t>`), a sign-up or educator confirmation (`/confirm/<c>`,
 * `/user/verify-educator/confirm/<c>`), a provider link (`/auth/<p>/link/<c>`) and an alert's
 * private feed (`/alerts/rss/<t>`). `/unsubscribe` and `/confirm-email-change` carry theirs as
 * `?token=`, the OAuth callback as `?code=` and `?state=`.
 */
const SECRET_PATH_PREFIXES = ["reset-password", "confirm", "link", "alerts/rss"];

const COOKIE_NAMES = [SESSION_COOKIE, XSRF_COOKIE, "oauthFlow"];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/*
 * One pass over a finished JSON line. A JSON escape (`\n`, `\"`, `\u0040`) is matched first and
 * kept whole, so no replacement starts inside one (which would leave the line unparsable) and an
 * address right after a `\n` is still found. No replacement holds a quote or a backslash.
 */
const SECRETS = new RegExp(
  [
    String.raw`(?<escape>\\(?:u[0-9a-fA-F]{4}|.))`,
    String.raw`(?<parameter>[?&;](?:${SECRET_PARAMETERS.map(escape).join("|")})=)[^&#\s"\\]+`,
    String.raw`(?<path>/(?:${SECRET_PATH_PREFIXES.map(escape).join("|")})/)[^/?#\s"\\]+`,
    String.raw`(?<cookie>\b(?:${COOKIE_NAMES.map(escape).join("|")})=)[^;,\s"\\]+`,
    String.raw`(?<bearer>\b[Bb]earer\s+)[^\s"\\]+`,
    // An address, or one percent-encoded in a URL (`%40`).
    String.raw`(?<email>[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})`,
  ].join("|"),
  "g",
);

/** `text` without mail addresses and without the secrets the site's URLs, cookies and headers carry. */
export function scrubSecrets(text: string): string {
  return text.replace(SECRETS, (match, ...args: unknown[]) => {
    const groups = args.at(-1) as Record<string, string | undefined>;
    if (groups.escape) return match;
    if (groups.email) return REDACTED_EMAIL;
    const kept = groups.parameter ?? groups.path ?? groups.cookie ?? groups.bearer ?? "";
    return `${kept}${REDACTED}`;
  });
}

export interface LoggerOptions {
  /** LOG_LEVEL: fatal, error, warn, info, debug, trace or silent. */
  level: string;
  /** Fields on every line instead of pino's pid and hostname (e.g. which server process). */
  base?: Record<string, string | number>;
  /** Where lines go instead of standard output (tests that read them). */
  stream?: { write(line: string): void };
}

export type Log = Logger;

/**
 * Fields that every line written within a piece of work carries, whichever logger writes it: the
 * server runs each request in `logContext.run({ reqId }, …)` (server/request-id.ts), so that a
 * service logging through the process's logger still names the request. A logger that has the
 * field bound already (Fastify's request logger) is left as it is.
 */
export const logContext = new AsyncLocalStorage<Record<string, string>>();

function contextFields(_object: object, _level: number, logger: Logger): Record<string, string> {
  const fields = logContext.getStore();
  if (!fields) return {};
  const bound = logger.bindings();
  const missing: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) if (!(key in bound)) missing[key] = value;
  return missing;
}

/** The logger of a process: pino's JSON lines, secrets redacted by key and by content. */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      ...(options.base ? { base: options.base } : {}),
      redact: { paths: REDACTED_PATHS, censor: REDACTED },
      mixin: contextFields,
      hooks: { streamWrite: scrubSecrets },
    },
    options.stream ?? pino.destination({ fd: 1, sync: true }),
  );
}
