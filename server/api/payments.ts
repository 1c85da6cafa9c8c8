import { z } from "zod";
import { parseInput } from "../../core/http/validate.ts";
import { presentClientSecret } from "../../core/payments/presenter.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

// The spec's payload names the acting user; the session decides who that is.
const IntentBody = z.object({ user_id: z.union([z.string(), z.number()]).nullish() }).nullish();

/** The subscription payment page's calls (Stripe; 503 when the site has no keys). */
export const paymentsApi: ApiModule = (app, services) => {
  apiRoute(app, {
    method: "POST",
    url: "/subscriptions_setup_intent",
    tag: "Payment",
    summary: "A Stripe SetupIntent for the signed-in user's subscription card: { client_secret }",
    body: IntentBody,
    auth: true,
    handler: async (request) => {
      const body = parseInput(IntentBody, request.body);
      return presentClientSecret(
        await services.payments.createSetupIntent(request.user, body?.user_id),
      );
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/create-intent",
    tag: "Payment",
    summary: "A Stripe PaymentIntent of 1099 usd for the subscription plan: { client_secret }",
    body: IntentBody,
    auth: true,
    handler: async (request) => {
      const body = parseInput(IntentBody, request.body);
      return presentClientSecret(
        await services.payments.createPaymentIntent(request.user, body?.user_id),
      );
    },
  });
};
