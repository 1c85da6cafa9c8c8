import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { countsAsView } from "../../core/posts/policy.ts";
import { orNull } from "../../core/not-found.ts";
import type { Services } from "../../core/services.ts";

/** Shown for an unknown, held or removed deal, or one without a usable link. */
const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Deal not found</title></head>
<body>
<main>
<h1>Deal not found</h1>
<p>This deal does not exist, is no longer public, or has no link to follow.</p>
<p><a href="/">Go To Home</a> · <a href="/newdeals">New Deals</a> · <a href="/search">Search all deals</a></p>
</main>
</body>
</html>
`;

/**
 * A click that a person made: not a crawler or a script that says so (isbot, as views count), not
 * a HEAD request, and not a browser's prefetch or prerender of the link.
 */
function countsAsClick(request: FastifyRequest): boolean {
  if (request.method !== "GET") return false;
  const purpose = `${request.headers["sec-purpose"] ?? ""} ${request.headers.purpose ?? ""}`;
  if (/prefetch|prerender/i.test(purpose)) return false;
  return countsAsView(request.headers["user-agent"]);
}

/** A fetch metadata header's one value, lower-cased; undefined when the request has none. */
function fetchMetadata(request: FastifyRequest, name: "sec-fetch-mode" | "sec-fetch-dest") {
  const value = request.headers[name];
  return value === undefined ? undefined : String(value).trim().toLowerCase();
}

/**
 * Whether the request is a top-level navigation, which is what following a link is. Fetch metadata
 * says when a browser is doing something else: an <img>, <script> or <link> (`no-cors`), a script's
 * fetch() (`cors`, `same-origin`), an <iframe> (`navigate` into destination `iframe`). A request
 * without it (an older browser, curl, an app) is taken as a navigation.
 */
function isTopLevelNavigation(request: FastifyRequest): boolean {
  const mode = fetchMetadata(request, "sec-fetch-mode");
  const dest = fetchMetadata(request, "sec-fetch-dest");
  return (mode ?? "navigate") === "navigate" && (dest ?? "document") === "document";
}

/**
 * The answer to a /go request that is not a navigation (an image or a script's request, whatever
 * page made it): 403, without the deal's link and without looking the deal up. Not counted, so
 * that `<img src="/go/…">` in a page adds no clicks; and not redirected, so that the viewer's
 * browser sends nothing to the store on its own and a script learns no destination. 403 rather
 * than 204: the request is refused, not served empty (tests/integration/links.test.ts).
 */
const NOT_A_NAVIGATION = "A deal's link is followed by opening it, not loaded by a page.\n";

/** Headers of every /go answer: never stored by a cache, never indexed, no page address leaked on. */
function linkHeaders(reply: FastifyReply) {
  reply
    .header("cache-control", "no-store")
    .header("x-robots-tag", "noindex, nofollow")
    // The store learns that the shopper came from this site, not from which page.
    .header("referrer-policy", "origin");
}

/**
 * `GET /go/{unique_id}` (docs/decisions/0039-honest-links.md): for a top-level navigation
 * only, counts the click in the per-day counters (no address, no account, no cookie), then 302 to
 * the deal's link — through its store's affiliate template when it has one. Unknown, held or
 * removed deals, deals with no link and links that are not http(s) answer 404.
 */
export const goLinkRoutes: FastifyPluginAsync<{ services: Services }> = async (
  app,
  { services },
) => {
  app.get<{ Params: { uniqueId: string } }>(
    "/go/:uniqueId",
    {
      // The site's plugins set cookies on any answer (XSRF-TOKEN, an ended session's removal):
      // this one sets none, so that following a deal leaves nothing behind.
      onSend: async (_request, reply, payload) => {
        reply.removeHeader("set-cookie");
        return payload;
      },
    },
    async (request, reply) => {
      linkHeaders(reply);
      if (!isTopLevelNavigation(request)) {
        return reply.code(403).type("text/plain; charset=utf-8").send(NOT_A_NAVIGATION);
      }
      const target = await orNull(
        services.links.go(request.params.uniqueId, { count: countsAsClick(request) }),
      );
      if (!target) {
        return reply.code(404).type("text/html; charset=utf-8").send(NOT_FOUND_PAGE);
      }
      return reply.redirect(target, 302);
    },
  );
};
