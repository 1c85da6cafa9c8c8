import type { FastifyPluginAsync } from "fastify";
import type { Services } from "../../core/services.ts";

/**
 * `GET /alerts/rss/<token>` (record 0045): a keyword alert's private RSS 2.0 feed. The token is 256
 * random bits, stored hashed; an unknown or revoked one answers 404. Never cached by a shared cache,
 * never indexed, no cookies set.
 */
export const alertFeedRoutes: FastifyPluginAsync<{ services: Services }> = async (
  app,
  { services },
) => {
  app.get<{ Params: { token: string } }>(
    "/alerts/rss/:token",
    {
      onSend: async (_request, reply, payload) => {
        reply.removeHeader("set-cookie");
        return payload;
      },
    },
    async (request, reply) => {
      reply
        .header("cache-control", "private, no-store")
        .header("x-robots-tag", "noindex, nofollow")
        .header("referrer-policy", "no-referrer");
      const xml = await services.alerts.rss(request.params.token);
      if (xml === null) {
        return reply.code(404).type("text/plain; charset=utf-8").send("No such feed.");
      }
      return reply.type("application/rss+xml; charset=utf-8").send(xml);
    },
  );
};
