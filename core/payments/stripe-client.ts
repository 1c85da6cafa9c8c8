import type Stripe from "stripe";
import type { Config } from "../../config/env.ts";
import { onFirstUse } from "../on-first-use.ts";

export type StripeClient = Stripe;

/** Stripe's client, made on first use: the SDK is loaded then, not at every start. */
export interface LazyStripeClient {
  client(): Promise<StripeClient>;
}

/**
 * Stripe's own client, or null when the site has no keys. STRIPE_API_BASE points it at another
 * server (the tests' local fake); otherwise it talks to api.stripe.com. The SDK is imported on the
 * first call (about a quarter of a second of CPU that a start without payments need not spend).
 */
export function createStripeClient(stripe: Config["stripe"]): LazyStripeClient | null {
  if (!stripe) return null;
  return {
    client: onFirstUse(() =>
      import("stripe").then(({ default: StripeSdk }) => newClient(StripeSdk, stripe)),
    ),
  };
}

function newClient(StripeSdk: typeof Stripe, stripe: NonNullable<Config["stripe"]>): StripeClient {
  const base = stripe.apiBase ? new URL(stripe.apiBase) : undefined;
  const protocol = base?.protocol === "http:" ? "http" : "https";
  return new StripeSdk(stripe.secretKey, {
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
