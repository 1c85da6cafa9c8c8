import Stripe from "stripe";
import type { Config } from "../../config/env.ts";

/**
 * Stripe's own client, or null when the site has no keys. STRIPE_API_BASE points it at another
 * server (the tests' local fake); otherwise it talks to api.stripe.com.
 */
export function createStripeClient(stripe: Config["stripe"]): Stripe | null {
  if (!stripe) return null;
  const base = stripe.apiBase ? new URL(stripe.apiBase) : undefined;
  const protocol = base?.protocol === "http:" ? "http" : "https";
  return new Stripe(stripe.secretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: "Chalkboard Deals" },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (protocol === "http" ? 80 : 443),
          protocol,
        }
      : {}),
  });
}

export type StripeClient = Stripe;
