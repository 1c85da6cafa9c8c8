import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { countsAsView } from "../core/posts/policy.ts";
import { orNull } from "../core/not-found.ts";
import type { Services } from "../core/services.ts";

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

/** Headers of every /go answer: never stored by a cache, never indexed, no page address leaked on. */
function linkHeaders(reply: FastifyReply) {
  reply
    .header("cache-control", "no-store")
    .header("x-robots-tag", "noindex, nofollow")
    // The store learns that the shopper came from this site, not from which page.
    .header("referrer-policy", "origin");
}

/**
 * `GET /go/{unique_id}` (issue 11, docs/decisions/0039-honest-links.md): counts the click in the
 * per-day counters (no address, no account, no cookie), then 302 to the deal's link — through its
 * store's affiliate template when it has one. Unknown, held or removed deals, deals with no link and
 * links that are not http(s) answer 404.
 */
export function registerGoLinks(app: FastifyInstance, services: Services) {
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
      const target = await orNull(
        services.links.go(request.params.uniqueId, { count: countsAsClick(request) }),
      );
      if (!target) {
        return reply.code(404).type("text/html; charset=utf-8").send(NOT_FOUND_PAGE);
      }
      return reply.redirect(target, 302);
    },
  );
}
