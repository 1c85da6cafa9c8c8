import { createPrivateKey } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { defaultPoolSize } from "../db/connection-budget.ts";

/** Every environment variable the site reads (README, "Configuration"), validated once at start. */

const onOff = z.enum(["on", "off"]);
const optionalUrl = z.url().optional();
const optionalText = z.string().min(1).optional();
/** An http(s) URL without a query or fragment; a trailing slash is dropped. */
const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .refine((value) => {
    // Zod runs this check even after the URL check failed: an unreadable URL is that one's error.
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return !url.search && !url.hash && !url.username && !url.password;
  }, "must have no query, fragment or credentials")
  .transform((value) => value.replace(/\/+$/, ""));

/** Names of address ranges that Fastify's trustProxy (proxy-addr) understands. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = net.isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: whose X-Forwarded-For to believe. Unset: nobody (the socket's address is the
 * client's). A number: that many proxy hops in front of the server. Otherwise the proxies'
 * addresses or CIDR ranges, comma-separated. Never "every hop", which lets any client pick its own
 * address and so its own rate-limit counter (docs/decisions/0023).
 */
const TrustProxySchema = z.string().transform((value, context): number | string[] => {
  if (/^\d{1,2}$/.test(value.trim())) return Number(value);
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (wrong !== undefined || !entries.length) {
    context.addIssue({
      code: "custom",
      message: `${JSON.stringify(wrong ?? value)} is not a hop count, an IP address or a CIDR range`,
    });
    return z.NEVER;
  }
  return entries;
});

/** Letters, digits and inner hyphens: one label of a host name. */
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const DOMAIN_NAME = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)+${LABEL}$`, "i");
const SELECTOR = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`, "i");

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  /**
   * Connections in each process's pool (PostgreSQL only; docs/decisions/0105-connection-budget.md);
   * unset: sized from WEB_CONCURRENCY (db/connection-budget.ts, defaultPoolSize).
   */
  DATABASE_POOL_SIZE: z
    .string()
    .regex(/^\d+$/, "must be a whole number of connections, 1 or more")
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, "must be a number of connections from 1 to 1000")
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: optionalText,
  /** DKIM signing (docs/decisions/0083-mail-delivery.md): all three, or none. */
  DKIM_DOMAIN: z
    .string()
    .regex(DOMAIN_NAME, "must be a domain name such as example.com")
    .transform((value) => value.toLowerCase())
    .optional(),
  DKIM_SELECTOR: z
    .string()
    .regex(SELECTOR, "must be a DNS label (or dotted labels) such as mail2026")
    .optional(),
  // Checked by dkimConfig, whose errors never repeat the value (a private key).
  DKIM_PRIVATE_KEY: optionalText,
  DEMO_DATA: z.enum(["auto", "on", "off"]).default("auto"),
  RATE_LIMIT: onOff.default("on"),
  TRUST_PROXY: TrustProxySchema.optional(),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_ISSUER: optionalUrl,
  FACEBOOK_CLIENT_ID: optionalText,
  FACEBOOK_CLIENT_SECRET: optionalText,
  FACEBOOK_ISSUER: optionalUrl,
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  /** Where the Stripe client sends API calls instead of api.stripe.com (tests' local fake). */
  STRIPE_API_BASE: optionalUrl,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Object storage for media (docs/decisions/0046-media-storage.md); unset: DATA_DIR/media. */
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens",
    )
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, "must be a region name such as us-east-1")
    .optional(),
  S3_ENDPOINT: httpUrl.optional(),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** Where pages link media (a CDN), in place of /media/: MEDIA_BASE_URL + "/deals/….webp". */
  MEDIA_BASE_URL: httpUrl.optional(),
  /** Server processes (node:cluster workers); more than 1 needs DATABASE_URL. */
  WEB_CONCURRENCY: z
    .string()
    .regex(/^\d+$/, "must be a whole number of server processes, 1 or more")
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1024, "must be a number of server processes from 1 to 1024")
    .optional(),
  /**
   * Seconds a server process goes on serving after SIGTERM, with readiness answering 503, before it
   * stops listening (docs/decisions/0093-health-and-readiness.md).
   */
  SHUTDOWN_DRAIN_S: z
    .string()
    .regex(/^\d+(\.\d+)?$/, "must be a number of seconds (0 or more, such as 5 or 2.5)")
    .transform(Number)
    .refine((n) => n <= 300, "must be at most 300 seconds")
    .optional(),
  /** Tests only: the link check may fetch loopback addresses (a local server). Never in production. */
  LINK_CHECK_ALLOW_LOOPBACK: onOff.default("off"),
  /** Tests only: push endpoints may be loopback addresses, over http (a local push service). */
  PUSH_ALLOW_LOOPBACK: onOff.default("off"),
  /** The in-server cache of anonymous pages (docs/decisions/0049-page-cache.md); off to measure. */
  PAGE_CACHE: onOff.default("on"),
  /**
   * Who else may read /metrics besides loopback (docs/decisions/0094-metrics.md): a bearer token,
   * long enough that it cannot be guessed.
   */
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]+$/, "must be printable characters without spaces")
    .min(32, "must be at least 32 characters long (for example: openssl rand -hex 32)")
    .optional(),
  /** `npm run worker` serves its metrics on this port; unset: it serves none. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
});

/** Variables whose value an error line leaves out. */
const SECRET_VARIABLES = new Set(["METRICS_TOKEN"]);

export interface OAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  /** OpenID Connect issuer (discovery at /.well-known/openid-configuration). */
  issuer: string;
}

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** undefined: embedded PGlite in dataDir; "memory://": in-memory PGlite (tests). */
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** DKIM_*: every mail is signed with this key for this domain and selector; unset: unsigned. */
  dkim?: DkimConfig;
  demoData: "auto" | "on" | "off";
  rateLimit: boolean;
  /** Fastify's trustProxy: false (nobody), a hop count, or proxy addresses and CIDR ranges. */
  trustProxy: false | number | string[];
  oauth: { google?: OAuthProviderConfig; facebook?: OAuthProviderConfig };
  stripe?: { secretKey: string; publishableKey: string; apiBase?: string };
  logLevel: string;
  /** The link check may reach loopback addresses (tests' local servers); refused in production. */
  linkCheckAllowLoopback: boolean;
  /** Push endpoints may be loopback addresses over http (tests' local push service); refused in production. */
  pushAllowLoopback: boolean;
  /** Rendered anonymous pages are kept in the server (PAGE_CACHE, on by default). */
  pageCache: boolean;
  /** Object storage for media; undefined: the folder DATA_DIR/media. */
  s3?: S3Config;
  /**
   * How many server processes `npm start` runs (WEB_CONCURRENCY): with PostgreSQL one per core by
   * default; with the embedded database always 1 (one process may open its folder).
   */
  webConcurrency: number;
  /**
   * DATABASE_POOL_SIZE: connections in each process's pool with PostgreSQL; by default what fits 2
   * machines of webConcurrency processes and a worker in max_connections 100 (at most 10).
   */
  databasePoolSize: number;
  /** SHUTDOWN_DRAIN_S: how long a server process serves on after SIGTERM, readiness off (5 s). */
  shutdownDrainSeconds: number;
  /** Where pages link media instead of /media/ (a CDN), without a trailing slash. */
  mediaBaseUrl?: string;
  /** Lines a start logs once as warnings: variables that are set but no longer do anything. */
  warnings: string[];
  /** METRICS_TOKEN: the bearer token that opens /metrics beyond loopback; unset: loopback only. */
  metricsToken?: string;
  /** METRICS_PORT: where `npm run worker` serves its metrics; unset: nowhere. */
  metricsPort?: number;
}

/**
 * Variables a site may still have set from an earlier version, which no longer do anything: a start
 * says so once rather than refusing, as nothing they did is lost (docs/decisions/0076).
 */
const RETIRED: Record<string, string> = {
  REDIS_URL:
    "REDIS_URL is set but no longer used: rate-limit counters and change notices between server processes go through PostgreSQL (DATABASE_URL); it can be removed",
};

/** S3-compatible object storage for media (S3_*). */
export interface S3Config {
  bucket: string;
  region: string;
  /** An S3-compatible server's URL (path-style addressing); unset: AWS's own endpoint. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export class ConfigError extends Error {}

/** What nodemailer's `dkim` option takes: the signing domain, the selector, an RSA key in PEM. */
export interface DkimConfig {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

const DKIM_VARIABLES = ["DKIM_DOMAIN", "DKIM_SELECTOR", "DKIM_PRIVATE_KEY"] as const;

/** The PEM text of DKIM_PRIVATE_KEY: the key itself, or the file it names. */
function dkimKeyText(value: string): string {
  // A key pasted into one line of an .env file or a container's settings has its line breaks as \n.
  if (value.includes("-----BEGIN")) return value.replace(/\\n/g, "\n");
  try {
    return fs.readFileSync(path.resolve(value), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigError(
      `Invalid environment variable DKIM_PRIVATE_KEY: it is neither a PEM key nor a readable file (${JSON.stringify(value)}: ${code})`,
    );
  }
}

/**
 * DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY turn signing on together. The key must be an
 * unencrypted RSA private key of at least 1024 bits, as nodemailer signs rsa-sha256 and receivers
 * ignore shorter keys (RFC 8301); its text is never part of an error.
 */
function dkimConfig(e: z.infer<typeof EnvSchema>): DkimConfig | undefined {
  const set = DKIM_VARIABLES.filter((name) => e[name] !== undefined);
  if (!set.length) return undefined;
  if (set.length < DKIM_VARIABLES.length) {
    const missing = DKIM_VARIABLES.filter((name) => e[name] === undefined);
    throw new ConfigError(
      `Invalid environment variable ${missing[0]}: ${set.join(" and ")} ${set.length > 1 ? "are" : "is"} set, so ${DKIM_VARIABLES.join(", ")} must all be set (or none, for unsigned mail)`,
    );
  }
  const text = dkimKeyText(e.DKIM_PRIVATE_KEY!);
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(text);
  } catch {
    throw new ConfigError(
      "Invalid environment variable DKIM_PRIVATE_KEY: it cannot be read as an unencrypted private key in PEM form (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----)",
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== "rsa" || bits < 1024) {
    throw new ConfigError(
      `Invalid environment variable DKIM_PRIVATE_KEY: it must be an RSA key of 1024 bits or more (2048 is usual); this one is ${key.asymmetricKeyType === "rsa" ? `${bits}-bit RSA` : (key.asymmetricKeyType ?? "of an unknown type")}`,
    );
  }
  return {
    domainName: e.DKIM_DOMAIN!,
    keySelector: e.DKIM_SELECTOR!,
    privateKey: key.export({ type: "pkcs8", format: "pem" }) as string,
  };
}

const S3_COMPANIONS = [
  "S3_REGION",
  "S3_ENDPOINT",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
] as const;
const S3_REQUIRED = ["S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;

/** S3_BUCKET turns object storage on and needs its region and keys; the others need S3_BUCKET. */
function s3Config(e: z.infer<typeof EnvSchema>): S3Config | undefined {
  if (!e.S3_BUCKET) {
    const stray = S3_COMPANIONS.find((name) => e[name] !== undefined);
    if (stray) {
      throw new ConfigError(
        `Invalid environment variable ${stray}: it only applies with S3_BUCKET, which is not set (media are kept in DATA_DIR/media)`,
      );
    }
    return undefined;
  }
  const missing = S3_REQUIRED.find((name) => e[name] === undefined);
  if (missing) {
    throw new ConfigError(
      `Invalid environment variable ${missing}: S3_BUCKET is set, so ${S3_REQUIRED.join(", ")} must be set too`,
    );
  }
  return {
    bucket: e.S3_BUCKET,
    region: e.S3_REGION!,
    endpoint: e.S3_ENDPOINT,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
  };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings count as unset, as shells and .env files often leave them.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    // A secret's value never goes into the line (it would land in logs).
    const shown = SECRET_VARIABLES.has(name) ? "" : `=${JSON.stringify(env[name])}`;
    throw new ConfigError(`Invalid environment variable ${name}${shown}: ${issue.message}`);
  }
  const e = parsed.data;
  const provider = (id?: string, secret?: string, issuer?: string, defaultIssuer?: string) =>
    id && secret
      ? { clientId: id, clientSecret: secret, issuer: issuer ?? defaultIssuer! }
      : undefined;
  if (
    (e.STRIPE_SECRET_KEY && !e.STRIPE_PUBLISHABLE_KEY) ||
    (!e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY)
  ) {
    throw new ConfigError(
      "Invalid environment variable STRIPE_PUBLISHABLE_KEY: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together",
    );
  }
  if (e.LINK_CHECK_ALLOW_LOOPBACK === "on" && e.NODE_ENV === "production") {
    throw new ConfigError(
      "Invalid environment variable LINK_CHECK_ALLOW_LOOPBACK: it is for tests and cannot be on when NODE_ENV=production",
    );
  }
  if (e.PUSH_ALLOW_LOOPBACK === "on" && e.NODE_ENV === "production") {
    throw new ConfigError(
      "Invalid environment variable PUSH_ALLOW_LOOPBACK: it is for tests and cannot be on when NODE_ENV=production",
    );
  }
  if (e.WEB_CONCURRENCY !== undefined && e.WEB_CONCURRENCY > 1 && !e.DATABASE_URL) {
    throw new ConfigError(
      `Invalid environment variable WEB_CONCURRENCY=${JSON.stringify(env.WEB_CONCURRENCY)}: the embedded database (no DATABASE_URL) can be opened by one server process only; set DATABASE_URL to run several, or leave WEB_CONCURRENCY unset`,
    );
  }
  if (e.DATABASE_POOL_SIZE !== undefined && !e.DATABASE_URL) {
    throw new ConfigError(
      `Invalid environment variable DATABASE_POOL_SIZE=${JSON.stringify(env.DATABASE_POOL_SIZE)}: it only applies with DATABASE_URL, which is not set (the embedded database has one connection)`,
    );
  }
  const webConcurrency = e.WEB_CONCURRENCY ?? (e.DATABASE_URL ? os.availableParallelism() : 1);
  const s3 = s3Config(e);
  const dkim = dkimConfig(e);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `Chalkboard Deals <no-reply@${new URL(publicUrl).hostname}>`,
    demoData: e.DEMO_DATA,
    rateLimit: e.RATE_LIMIT === "on",
    trustProxy: e.TRUST_PROXY === undefined || e.TRUST_PROXY === 0 ? false : e.TRUST_PROXY,
    oauth: {
      google: provider(
        e.GOOGLE_CLIENT_ID,
        e.GOOGLE_CLIENT_SECRET,
        e.GOOGLE_ISSUER,
        "https://accounts.google.com",
      ),
      facebook: provider(
        e.FACEBOOK_CLIENT_ID,
        e.FACEBOOK_CLIENT_SECRET,
        e.FACEBOOK_ISSUER,
        "https://www.facebook.com",
      ),
    },
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            apiBase: e.STRIPE_API_BASE,
          }
        : undefined,
    logLevel: e.LOG_LEVEL,
    linkCheckAllowLoopback: e.LINK_CHECK_ALLOW_LOOPBACK === "on",
    pushAllowLoopback: e.PUSH_ALLOW_LOOPBACK === "on",
    pageCache: e.PAGE_CACHE === "on",
    webConcurrency,
    databasePoolSize: e.DATABASE_POOL_SIZE ?? defaultPoolSize(webConcurrency),
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_S ?? 5,
    ...(s3 ? { s3 } : {}),
    ...(dkim ? { dkim } : {}),
    ...(e.MEDIA_BASE_URL ? { mediaBaseUrl: e.MEDIA_BASE_URL } : {}),
    ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
    ...(e.METRICS_PORT ? { metricsPort: e.METRICS_PORT } : {}),
    warnings: Object.keys(RETIRED)
      .filter((name) => cleaned[name] !== undefined)
      .map((name) => RETIRED[name]!),
  };
}
