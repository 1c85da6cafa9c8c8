import { randomFillSync } from "node:crypto";
import helmet from "@fastify/helmet";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * This response's Content-Security-Policy nonce: React Router puts it on the scripts it writes
     * (app/entry.server.tsx reads it from the load context); nothing else in the page carries it.
     */
    cspNonce: string;
    /**
     * Set for a page served as stored by the page cache: its policy admits the page's own inline
     * scripts by these hashes (`'sha256-…'`) instead of a nonce (docs/decisions/0067).
     */
    cspScriptHashes: readonly string[] | null;
  }
}

/**
 * The origin images may also come from: MEDIA_BASE_URL's (a CDN or bucket in front of /media/).
 * Pages show no other site's images (docs/decisions/0074-images-in-user-html.md: outside images,
 * picture links and provider pictures are copied into the media), so this is the only one named
 * besides Stripe's, for its payment page.
 */
export function mediaImageSource(mediaBaseUrl: string | undefined): string {
  return mediaBaseUrl ? ` ${new URL(mediaBaseUrl).origin}` : "";
}

function policy(scriptSources: string, dev: boolean, imageSources: string): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSources}`,
    // Inline style attributes (sliders, carousels) need 'unsafe-inline'; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    // No outside images (record 0074), so no viewer's browser is sent to a poster's server.
    // Stripe's payment page shows card-brand and 3-D Secure images from Stripe.
    `img-src 'self' data: blob: https://*.stripe.com${imageSources}`,
    "font-src 'self' data:",
    `connect-src 'self' https://api.stripe.com${dev ? " ws: wss:" : ""}`,
    "frame-src https://js.stripe.com https://hooks.stripe.com",
    // The service worker and the web app manifest (record 0108): the site's own, named outright.
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

function pageScriptSources(
  nonce: string,
  scriptHashes: readonly string[] | null,
  dev: boolean,
): string {
  // Vite's development client writes inline scripts and evaluates modules; a nonce in the policy
  // would make browsers ignore 'unsafe-inline', so development gets none.
  if (dev) return "'self' 'unsafe-inline' 'unsafe-eval'";
  const inline = scriptHashes ?? [`'nonce-${nonce}'`];
  return ["'self'", ...inline, "https://js.stripe.com"].join(" ");
}

/**
 * Browser features the site never uses, turned off for its pages and anything framed in them, so
 * that no script that got in (or a framed page) can ask for them. Payment stays for the site and
 * Stripe's frame (the payment page's Payment Request button). Only features Chromium knows are
 * named: an unknown one is logged as an error on every page.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "idle-detection=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  'payment=(self "https://js.stripe.com")',
  "publickey-credentials-get=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
  "browsing-topics=()",
].join(", ");

const NONCE_BYTES = 16;
/** Random bytes drawn for many nonces at once: one call per request cost more than the page cache's hit. */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let noncePoolUsed = noncePool.length;

/** A fresh CSP nonce: 16 bytes from the system's CSPRNG, base64, never handed out twice. */
export function newCspNonce(): string {
  if (noncePoolUsed === noncePool.length) {
    randomFillSync(noncePool);
    noncePoolUsed = 0;
  }
  const nonce = noncePool.toString("base64", noncePoolUsed, noncePoolUsed + NONCE_BYTES);
  noncePoolUsed += NONCE_BYTES;
  return nonce;
}

/**
 * Headers that only a document (or a worker's script; the build has none) acts on. The build's
 * hashed scripts and style sheets under /assets/ go without them: a page loads 24–31 of them, and
 * these were about 700 of each one's 1,100 bytes of headers (the smallest script has a 206-byte
 * body). What a script or style sheet does use stays: nosniff, Cross-Origin-Resource-Policy,
 * Referrer-Policy (for what a sheet fetches) and HSTS.
 */
const DOCUMENT_ONLY_HEADERS = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "permissions-policy",
  "origin-agent-cluster",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
] as const;

/** A script or style sheet of the client build (the only kinds of file it puts in /assets/). */
export function isBuildScriptOrSheet(url: string, contentType: string): boolean {
  return (
    url.startsWith("/assets/") &&
    /^(?:application\/javascript|text\/javascript|text\/css)\b/.test(contentType)
  );
}

/**
 * Helmet's headers and a Content-Security-Policy on every response (docs/decisions/0017) but the
 * build's scripts and style sheets, which keep only what they use (above). A page may run scripts
 * from the site itself, Stripe's script on the payment page, and the inline scripts that carry
 * this response's nonce, which only React Router's own scripts are given; a page the page cache
 * serves as stored admits those same scripts by their hashes instead.
 * Strict-Transport-Security only when the site is served over HTTPS (`https`: PUBLIC_URL's
 * scheme): over plain HTTP it says nothing true, and a site that later moves to another host name
 * would find browsers refusing it.
 * Nothing here reads or buffers the body: caching is server/plugins/http-cache.ts.
 */
export const securityHeadersPlugin = fp<{ dev: boolean; https: boolean; mediaBaseUrl?: string }>(
  async (app, options) => {
    const { dev } = options;
    const imageSources = mediaImageSource(options.mediaBaseUrl);
    await app.register(helmet, {
      contentSecurityPolicy: false,
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: options.https,
      crossOriginResourcePolicy: { policy: "same-site" },
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    });

    app.decorateRequest("cspNonce", "");
    app.decorateRequest("cspScriptHashes", null);
    app.addHook("onRequest", async (request) => {
      request.cspNonce = newCspNonce();
    });

    app.addHook("onSend", async (request, reply, payload) => {
      const contentType = String(reply.getHeader("content-type") ?? "");
      if (isBuildScriptOrSheet(request.url, contentType)) {
        for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
        return payload;
      }
      const isHtml = contentType.startsWith("text/html");
      reply.header("permissions-policy", PERMISSIONS_POLICY);
      reply.header(
        "content-security-policy",
        policy(
          isHtml ? pageScriptSources(request.cspNonce, request.cspScriptHashes, dev) : "'self'",
          dev,
          imageSources,
        ),
      );
      return payload;
    });
  },
  { name: "security-headers" },
);
