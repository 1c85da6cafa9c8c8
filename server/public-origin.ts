import http from "node:http";
import type { Socket } from "node:net";
import fp from "fastify-plugin";

declare module "node:http" {
  interface IncomingMessage {
    /** Set by Fastify before rewriteUrl: the target that React Router's adapter renders. */
    originalUrl?: string;
  }
}

declare module "fastify" {
  interface FastifyRequest {
    /** This request's address on the site: PUBLIC_URL's origin with the request's path and query. */
    readonly publicUrl: URL;
  }
}

/**
 * A request target in origin form (`/path?query`). An absolute-form target (`http://host/path`,
 * which RFC 9112 section 3.2.2 requires a server to accept) becomes its path and query; the
 * authority it names is ignored like the Host header is (see `canonicalRequest`). Anything else is
 * left for the router to refuse.
 */
export function originFormTarget(target: string): string {
  if (target.startsWith("/") || !/^https?:\/\//i.test(target)) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return target;
  }
}

/**
 * The one place a request's origin is decided (docs/decisions/0072-one-origin.md): before routing,
 * every request is made a request for PUBLIC_URL's host, whatever its Host or X-Forwarded-Host
 * said, and an absolute-form target becomes origin form. React Router's adapter builds the URL it
 * renders from the Host header and the original target, so a Host of `host/privacy-policy?` made
 * it render another page than the path asked for, which the page cache then kept under that path
 * for every visitor (tests/integration/public-origin.test.ts). A site answers for one address;
 * proxies in front of it may say who the client is (TRUST_PROXY), never which site it asked for.
 *
 * Returns the target to route, as Fastify's `rewriteUrl` does; `then` rewrites it further.
 */
export function canonicalRequest(publicUrl: string, then: (req: http.IncomingMessage) => string) {
  const publicHost = new URL(publicUrl).host;
  return (req: http.IncomingMessage): string => {
    const target = originFormTarget(req.url ?? "/");
    req.headers.host = publicHost;
    delete req.headers["x-forwarded-host"];
    req.url = target;
    req.originalUrl = target;
    return then(req);
  };
}

/** `request.publicUrl`: the address of what this request asked for, on PUBLIC_URL's origin. */
export const publicUrlPlugin = fp<{ publicUrl: string }>(
  async (app, { publicUrl }) => {
    const origin = new URL(publicUrl).origin;
    app.decorateRequest("publicUrl", {
      getter() {
        return new URL(this.url, origin);
      },
    });
  },
  { name: "public-url" },
);

/**
 * Answers a request Node's parser refused (Fastify's clientErrorHandler): a target or headers over
 * the limit (431), a malformed request (400), a request that took too long (408). The socket is
 * closed afterwards, so the answer says `Connection: close`, or a keep-alive client would send its
 * next request into a closed socket and see it reset.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const status =
    error.code === "HPE_HEADER_OVERFLOW" || error.code === "HPE_URI_TOO_LONG"
      ? 431
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? 408
        : 400;
  const reason = http.STATUS_CODES[status]!;
  const body = JSON.stringify({ status: false, message: `${reason}.` });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
