import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Redis } from "ioredis";

export interface RouteRateLimit {
  max: number;
  timeWindow: string;
  keyGenerator?: (request: FastifyRequest) => string;
}

/**
 * Limits per route (docs/decisions/0007-rate-limits.md). Keys are the client's address, never the
 * account alone, so nobody can lock another person out by failing to sign in as them.
 */
export const RATE_LIMITS = {
  signin: { max: 10, timeWindow: "15 minutes" },
  signup: { max: 5, timeWindow: "1 hour" },
  forgotPassword: { max: 5, timeWindow: "1 hour" },
  contact: { max: 5, timeWindow: "1 hour" },
  posting: { max: 10, timeWindow: "1 hour" },
  comment: { max: 30, timeWindow: "10 minutes" },
  social: { max: 20, timeWindow: "15 minutes" },
} satisfies Record<string, RouteRateLimit>;

/**
 * Registers the limiter unless RATE_LIMIT=off; routes opt in through their config. Counters live
 * in the process, or in Redis when REDIS_URL is set so that every server process shares them.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  options: { enabled: boolean; redisUrl?: string },
) {
  if (!options.enabled) return;
  let redis: Redis | undefined;
  if (options.redisUrl) {
    redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    app.addHook("onClose", async () => {
      await redis!.quit();
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: "chalkboard-rate-limit:", skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      status: false,
      message: `Too many requests. Please try again in ${context.after}.`,
    }),
  });
}
