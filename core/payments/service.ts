import { requireActingUser, requireUser } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import { PAYMENT, PAYMENT_MESSAGES } from "../constants.ts";
import type { Deps } from "../deps.ts";
import type { ClaimedUserId } from "../people/accounts/schema.ts";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnavailableError,
  UpstreamError,
  ValidationError,
} from "../errors.ts";
import { isCurrentSubscription } from "./policy.ts";
import { presentPlan, presentSubscription } from "./presenter.ts";
import * as repo from "./repository.ts";
import { createStripeClient, type StripeClient } from "./stripe-client.ts";

/** How a payment the browser reports back stands, after asking Stripe. */
export type PaymentOutcome = "succeeded" | "processing" | "failed";

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The paid period: from today for one plan interval (a month unless the plan says year). */
function periodFrom(today: string, interval: string) {
  const end = new Date(`${today}T00:00:00.000Z`);
  if (interval === "year") end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return { start: today, end: isoDate(end) };
}

/**
 * The subscription payment page (spec: a fixed 1099 usd): Stripe SetupIntents and PaymentIntents
 * for the signed-in user's Stripe customer, and the subscription row that a paid intent activates.
 * Without Stripe keys every call answers 503 'Payments are not configured.'.
 */
export function createPaymentsService({ db, config, now, log }: Deps) {
  const stripe = createStripeClient(config.stripe);

  async function requireStripe(): Promise<StripeClient> {
    if (!stripe) throw new UnavailableError(PAYMENT_MESSAGES.notConfigured);
    return stripe.client();
  }

  /** A failed call to Stripe (down, bad key, refused) is a 502 for the client, logged here. */
  async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      log.warn(`stripe: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new UpstreamError(PAYMENT_MESSAGES.providerUnavailable);
    }
  }

  async function loadPlan() {
    const plan = await repo.findPlan(db);
    if (!plan) throw new NotFoundError("No subscription plan is available.");
    return plan;
  }

  /**
   * The subscription row an intent belongs to, and the user's Stripe customer (made once, then
   * kept on their subscription rows). A payment needs a pending row of its own; a card set up for
   * later may hang on the latest row, whatever its state.
   */
  async function prepareSubscription(
    client: StripeClient,
    user: CurrentUser,
    plan: repo.PlanRow,
    purpose: "setup" | "payment",
  ) {
    const at = now();
    const latest = await repo.findLatestSubscription(db, user.id);
    if (purpose === "payment" && isCurrentSubscription(latest, isoDate(at))) {
      throw new ConflictError(PAYMENT_MESSAGES.alreadyActive);
    }
    const customerId =
      latest?.stripe_customer_id ||
      (await repo.findStripeCustomerId(db, user.id)) ||
      (
        await callStripe("creating a customer", () =>
          client.customers.create(
            { email: user.email, name: user.name, metadata: { user_id: String(user.id) } },
            // Two quick clicks make one customer, not two.
            { idempotencyKey: `chalkboard-customer-${user.id}` },
          ),
        )
      ).id;

    if (latest && (latest.status === "Pending" || purpose === "setup")) {
      if (latest.stripe_customer_id !== customerId) {
        await repo.setStripeCustomerId(db, latest.id, customerId);
      }
      return { subscriptionId: latest.id, customerId };
    }
    const subscriptionId = await repo.insertPendingSubscription(db, {
      user_id: user.id,
      plan_id: plan.id,
      stripe_customer_id: customerId,
      created_at: at,
    });
    return { subscriptionId, customerId };
  }

  function intentMetadata(user: CurrentUser, plan: repo.PlanRow, subscriptionId: number) {
    return {
      user_id: String(user.id),
      plan_id: String(plan.id),
      subscription_id: String(subscriptionId),
    };
  }

  /**
   * What both intents begin with: the acting user, Stripe, the plan, the subscription row and the
   * customer. `create` makes the intent; the browser gets its client secret.
   */
  async function intentSecret(
    user: CurrentUser | null,
    claimedUserId: ClaimedUserId,
    purpose: "setup" | "payment",
    create: (intent: {
      client: StripeClient;
      customer: string;
      metadata: ReturnType<typeof intentMetadata>;
      plan: repo.PlanRow;
    }) => Promise<{ client_secret: string | null }>,
  ): Promise<string> {
    const current = requireActingUser(user, claimedUserId);
    const client = await requireStripe();
    const plan = await loadPlan();
    const { subscriptionId, customerId } = await prepareSubscription(
      client,
      current,
      plan,
      purpose,
    );
    const intent = await create({
      client,
      customer: customerId,
      metadata: intentMetadata(current, plan, subscriptionId),
      plan,
    });
    if (!intent.client_secret) throw new UpstreamError(PAYMENT_MESSAGES.providerUnavailable);
    return intent.client_secret;
  }

  return {
    configured: stripe !== null,

    /** What the payment page shows: the plan, the user's latest subscription, whether to sell. */
    async page(user: CurrentUser) {
      const [plan, latest] = await Promise.all([
        repo.findPlan(db),
        repo.findLatestSubscription(db, user.id),
      ]);
      return {
        configured: stripe !== null,
        plan: plan ? presentPlan(plan) : null,
        subscription: plan && latest ? presentSubscription(latest, plan) : null,
        hasCurrentSubscription: isCurrentSubscription(latest, isoDate(now())),
      };
    },

    /** `POST /subscriptions_setup_intent`: saves a card for the subscription's renewals. */
    createSetupIntent(user: CurrentUser | null, claimedUserId: ClaimedUserId): Promise<string> {
      return intentSecret(user, claimedUserId, "setup", ({ client, customer, metadata }) =>
        callStripe("creating a SetupIntent", () =>
          client.setupIntents.create({
            customer,
            usage: "off_session",
            automatic_payment_methods: { enabled: true },
            metadata,
          }),
        ),
      );
    },

    /** `POST /create-intent`: the first payment, 1099 usd, keeping the card for renewals. */
    createPaymentIntent(user: CurrentUser | null, claimedUserId: ClaimedUserId): Promise<string> {
      return intentSecret(user, claimedUserId, "payment", ({ client, customer, metadata, plan }) =>
        callStripe("creating a PaymentIntent", () =>
          client.paymentIntents.create({
            amount: PAYMENT.amount,
            currency: PAYMENT.currency,
            customer,
            setup_future_usage: "off_session",
            automatic_payment_methods: { enabled: true },
            description: plan.name,
            metadata,
          }),
        ),
      );
    },

    /**
     * The browser comes back from Stripe with a PaymentIntent id. Its word is not trusted: the
     * intent is read from Stripe, must be this user's and for the fixed amount, and only a
     * succeeded one activates the subscription (once).
     */
    async completePayment(
      user: CurrentUser | null,
      paymentIntentId: string,
    ): Promise<PaymentOutcome> {
      const current = requireUser(user);
      const client = await requireStripe();
      if (!/^pi_[A-Za-z0-9_]{1,200}$/.test(paymentIntentId)) {
        throw new ValidationError({ payment_intent: "Unknown payment." });
      }
      const intent = await callStripe("reading a PaymentIntent", () =>
        client.paymentIntents.retrieve(paymentIntentId),
      );
      if (intent.metadata?.user_id !== String(current.id)) {
        throw new ForbiddenError("This payment belongs to another account.");
      }
      if (intent.status === "processing") return "processing";
      if (
        intent.status !== "succeeded" ||
        intent.amount !== PAYMENT.amount ||
        intent.currency !== PAYMENT.currency
      ) {
        return "failed";
      }
      const subscription = await repo.findSubscription(
        db,
        Number(intent.metadata.subscription_id),
        current.id,
      );
      if (!subscription) return "failed";
      const plan = await loadPlan();
      await repo.activateSubscription(
        db,
        subscription.id,
        periodFrom(isoDate(now()), plan.interval),
      );
      return "succeeded";
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
