import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { LinkCheckOutcome } from "../../../db/schema.ts";
import { isAllowedAddress, pinnedLookup, systemResolver, type Resolver } from "./address-guard.ts";

export { isAllowedAddress };

/**
 * The link check's fetch (docs/decisions/0038-freshness-and-link-check.md): one deal's link,
 * followed by hand through at most 5 redirects, HEAD first and GET when HEAD is refused, with a
 * connect timeout and a deadline for each whole answer, reading at most a few kB of any body.
 * `fetchBody` is the same fetch reading a whole bounded body: the images copied into posts
 * (core/media/outside-images.ts, docs/decisions/0074-images-in-user-html.md).
 *
 * Server-side request forgery: every address a host resolves to is checked before anything
 * connects (core/posts/freshness/address-guard.ts), a host with any blocked address is refused, and the
 * socket connects to the checked address itself (a lookup that answers only it), so a second DNS
 * answer cannot switch it.
 */

export interface LinkCheckSettings {
  /** Tests only (LINK_CHECK_ALLOW_LOOPBACK): loopback addresses and any port are allowed. */
  allowLoopback: boolean;
  connectTimeoutMs: number;
  /** From sending a request to the end of its answer (headers and the little body read). */
  answerTimeoutMs: number;
  maxRedirects: number;
  maxBodyBytes: number;
}

export const LINK_CHECK_DEFAULTS: LinkCheckSettings = {
  allowLoopback: false,
  connectTimeoutMs: 5_000,
  answerTimeoutMs: 10_000,
  maxRedirects: 5,
  maxBodyBytes: 4 * 1024,
};

/** Ports a deal's link may name when loopback is not allowed: the web's own. */
const WEB_PORTS = new Set([80, 443, 8080, 8443]);

export const USER_AGENT =
  "ChalkboardDealsLinkCheck/1.0 (+checks that shared deals still work; one request per link)";

/** A refusal to fetch a link at all: no connection was made. */
export class LinkRefused extends Error {}

interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** The address a link may be fetched from, or a LinkRefused saying why not. */
async function vet(url: URL, settings: LinkCheckSettings, resolve: Resolver): Promise<Target> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new LinkRefused(`only http and https links are checked, not ${url.protocol}`);
  }
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  const checkPort = () => {
    if (!settings.allowLoopback && !WEB_PORTS.has(port)) {
      throw new LinkRefused(`port ${port} is not a web port`);
    }
  };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) {
    if (!isAllowedAddress(host, settings.allowLoopback)) {
      throw new LinkRefused(`${host} is a private or reserved address`);
    }
    checkPort();
    return { url, address: host, family: net.isIP(host) as 4 | 6 };
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new LinkFailed(`the name ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new LinkFailed(`the name ${host} does not resolve`);
  const blocked = addresses.find((a) => !isAllowedAddress(a.address, settings.allowLoopback));
  if (blocked) {
    throw new LinkRefused(`${host} resolves to ${blocked.address}, a private or reserved address`);
  }
  checkPort();
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A fetch that failed on the way (timeout, refused connection, bad answer). */
export class LinkFailed extends Error {}

interface Answer {
  status: number;
  location: string | undefined;
  /** The whole body of a 2xx answer, when the request collected it. */
  body?: Buffer;
  /** The answer's Content-Type header, when it had one. */
  contentType?: string;
}

/** What one request sends and how much of the answer it reads. */
interface RequestSpec {
  method: "HEAD" | "GET";
  userAgent: string;
  accept: string;
  /**
   * "peek": at most settings.maxBodyBytes are read and the answer is then taken as it is (the link
   * check). "collect": a 2xx answer's whole body, which fails above settings.maxBodyBytes.
   */
  read: "peek" | "collect";
}

const LINK_CHECK_REQUEST = {
  userAgent: USER_AGENT,
  accept: "text/html,application/xhtml+xml,*/*;q=0.8",
  read: "peek",
} as const;

/** One request to a checked address: its status and Location, and as much body as `spec` says. */
function fetchOnce(
  target: Target,
  spec: RequestSpec,
  settings: LinkCheckSettings,
  signal: AbortSignal | undefined,
): Promise<Answer> {
  const { url, address, family } = target;
  const secure = url.protocol === "https:";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (error: Error | null, answer?: Answer) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      request.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const onAbort = () => finish(new LinkFailed("the check was stopped"));
    const request = (secure ? https : http).request({
      method: spec.method,
      protocol: url.protocol,
      hostname: host,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: {
        "user-agent": spec.userAgent,
        accept: spec.accept,
        "accept-encoding": "identity",
      },
      agent: false,
      // The socket connects to the address checked above, whatever DNS says now.
      lookup: pinnedLookup(address, family),
      ...(secure && !net.isIP(host) ? { servername: host } : {}),
    });
    timers.push(
      setTimeout(
        () => finish(new LinkFailed(`no connection within ${settings.connectTimeoutMs / 1000} s`)),
        settings.connectTimeoutMs,
      ),
    );
    timers.push(
      setTimeout(
        () =>
          finish(new LinkFailed(`no complete answer within ${settings.answerTimeoutMs / 1000} s`)),
        settings.answerTimeoutMs,
      ),
    );
    request.on("socket", (socket) => {
      socket.once("connect", () => clearTimeout(timers[0]));
    });
    request.on("error", (error) =>
      finish(new LinkFailed(`the connection failed: ${error.message}`)),
    );
    request.on("response", (response) => {
      const answer: Answer = {
        status: response.statusCode ?? 0,
        location: response.headers.location,
        contentType: response.headers["content-type"],
      };
      const collect = spec.read === "collect" && answer.status >= 200 && answer.status < 300;
      if (spec.read === "collect" && !collect) return finish(null, answer);
      const tooLarge = () =>
        new LinkFailed(`the answer is larger than ${sizeText(settings.maxBodyBytes)}`);
      if (collect && Number(response.headers["content-length"]) > settings.maxBodyBytes) {
        return finish(tooLarge());
      }
      const chunks: Buffer[] = [];
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (!collect) {
          // Enough to know the page answers: the rest is not read (a 10 MB page costs a few kB).
          if (read >= settings.maxBodyBytes) finish(null, answer);
        } else if (read > settings.maxBodyBytes) finish(tooLarge());
        else chunks.push(chunk);
      });
      response.on("end", () =>
        finish(null, collect ? { ...answer, body: Buffer.concat(chunks) } : answer),
      );
      response.on("error", () =>
        collect ? finish(new LinkFailed("the answer was cut short")) : finish(null, answer),
      );
    });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort);
    request.end();
  });
}

/** HEAD answers that do not mean what GET would: refused, unsupported, or said of HEAD alone. */
const RETRY_WITH_GET = new Set([400, 403, 404, 405, 410, 501]);

export interface LinkCheckResult {
  outcome: LinkCheckOutcome;
  /** The final answer's status; null when none came. */
  httpStatus: number | null;
  /** The last address reached. */
  finalUrl: string;
  /** In words, for moderators and the log. */
  detail: string;
  redirects: number;
}

/** "https://shop.example/" and "https://www.shop.example" name the same home page. */
function homeKey(url: URL): string {
  const host = url.hostname.replace(/^www\./, "");
  const path = url.pathname.replace(/\/+$/, "");
  return `${host}${path}${url.search}`;
}

/**
 * Whether a redirect ended on the store's home page: the store's own link, or the bare origin
 * ("/", no query) when the deal's link was a deeper page.
 */
export function isStoreHome(final: URL, original: URL, storeLink: string | null): boolean {
  if (storeLink) {
    try {
      if (homeKey(final) === homeKey(new URL(storeLink))) return true;
    } catch {
      // A store link that is not a URL names no home page.
    }
  }
  const bare = (u: URL) => (u.pathname === "/" || u.pathname === "") && u.search === "";
  return bare(final) && !bare(original);
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * Checks one deal's link. 404 or 410 is `not_found`; a redirect that ends on the store's home page
 * is `redirected_home`; a 2xx answer is `ok`; a link to a blocked address or scheme is `blocked`
 * (nothing connected); anything else (timeouts, loops, more than 5 redirects, other statuses) is
 * `failed`, which says nothing about the deal.
 */
export async function checkLink(
  link: string,
  options: {
    storeLink?: string | null;
    settings?: Partial<LinkCheckSettings>;
    signal?: AbortSignal;
    resolve?: Resolver;
  } = {},
): Promise<LinkCheckResult> {
  const settings = { ...LINK_CHECK_DEFAULTS, ...options.settings };
  const resolve = options.resolve ?? systemResolver;
  let original: URL;
  try {
    original = new URL(link);
  } catch {
    return {
      outcome: "blocked",
      httpStatus: null,
      finalUrl: link,
      detail: "not a web address",
      redirects: 0,
    };
  }
  let url = original;
  const seen = new Set([url.href]);
  let redirects = 0;
  const result = (
    outcome: LinkCheckOutcome,
    httpStatus: number | null,
    detail: string,
  ): LinkCheckResult => ({ outcome, httpStatus, finalUrl: url.href, detail, redirects });

  for (;;) {
    let answer: Answer;
    try {
      const target = await vet(url, settings, resolve);
      answer = await fetchOnce(
        target,
        { ...LINK_CHECK_REQUEST, method: "HEAD" },
        settings,
        options.signal,
      );
      if (RETRY_WITH_GET.has(answer.status)) {
        answer = await fetchOnce(
          target,
          { ...LINK_CHECK_REQUEST, method: "GET" },
          settings,
          options.signal,
        );
      }
    } catch (error) {
      if (error instanceof LinkRefused)
        return result("blocked", null, `Not fetched: ${error.message}.`);
      if (error instanceof LinkFailed)
        return result("failed", null, `${capitalise(error.message)}.`);
      throw error;
    }
    const { status, location } = answer;
    if (redirectStatuses.has(status) && location) {
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return result("failed", status, "The store redirected to an address that is not valid.");
      }
      if (seen.has(next.href)) {
        return result("failed", status, `The redirects go round in a loop (back to ${next.href}).`);
      }
      if (redirects >= settings.maxRedirects) {
        return result("failed", status, `More than ${settings.maxRedirects} redirects.`);
      }
      seen.add(next.href);
      url = next;
      redirects += 1;
      continue;
    }
    if (status === 404 || status === 410) {
      return result("not_found", status, `The store answered ${status} (${statusText(status)}).`);
    }
    if (redirects > 0 && isStoreHome(url, original, options.storeLink ?? null)) {
      return result(
        "redirected_home",
        status,
        `The link now redirects to the store's home page (${url.href}).`,
      );
    }
    if (status >= 200 && status < 300) {
      return result("ok", status, redirects ? `Works (after ${redirects} redirects).` : "Works.");
    }
    return result("failed", status, `The store answered ${status} (${statusText(status)}).`);
  }
}

export interface FetchedBody {
  body: Buffer;
  /** The address the body came from, after redirects. */
  finalUrl: string;
  /** Its Content-Type header ("" when it had none): a link preview reads only HTML. */
  contentType: string;
}

/**
 * One GET of an address a user supplied, through the link check's guard and limits: each hop of at
 * most `maxRedirects` redirects is vetted before it connects, and a 2xx answer's whole body is
 * read, at most `maxBodyBytes`. Throws LinkRefused when a hop is refused (nothing connected to it)
 * and LinkFailed for any other failure, another final status included.
 */
export async function fetchBody(
  link: string,
  options: {
    userAgent: string;
    accept: string;
    settings?: Partial<LinkCheckSettings>;
    signal?: AbortSignal;
    resolve?: Resolver;
  },
): Promise<FetchedBody> {
  const settings = { ...LINK_CHECK_DEFAULTS, ...options.settings };
  const resolve = options.resolve ?? systemResolver;
  const spec: RequestSpec = {
    method: "GET",
    userAgent: options.userAgent,
    accept: options.accept,
    read: "collect",
  };
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new LinkRefused("not a web address");
  }
  const seen = new Set([url.href]);
  for (let redirects = 0; ; redirects++) {
    const answer = await fetchOnce(
      await vet(url, settings, resolve),
      spec,
      settings,
      options.signal,
    );
    if (answer.body) {
      return { body: answer.body, finalUrl: url.href, contentType: answer.contentType ?? "" };
    }
    if (!redirectStatuses.has(answer.status) || !answer.location) {
      throw new LinkFailed(`${url.host} answered ${answer.status} (${statusText(answer.status)})`);
    }
    if (redirects >= settings.maxRedirects) {
      throw new LinkFailed(`more than ${settings.maxRedirects} redirects`);
    }
    try {
      url = new URL(answer.location, url);
    } catch {
      throw new LinkFailed("a redirect to an address that is not valid");
    }
    if (seen.has(url.href)) throw new LinkFailed("the redirects go round in a loop");
    seen.add(url.href);
  }
}

function sizeText(bytes: number): string {
  const mb = 1024 * 1024;
  return bytes >= mb ? `${Math.round((bytes / mb) * 10) / 10} MB` : `${Math.ceil(bytes / 1024)} kB`;
}

function statusText(status: number): string {
  return http.STATUS_CODES[status] ?? "unknown status";
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
