import { ActingUserBody } from "../../core/people/accounts/schema.ts";
import { presentClientSecret } from "../../core/payments/presenter.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { ClientSecretResponse } from "../../core/payments/responses.ts";

/** The subscription payment page's calls (Stripe; 503 when the site has no keys). */
export const paymentsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/subscriptions_setup_intent",
    tag: "Payment",
    summary: "A Stripe SetupIntent for the signed-in user's subscription card: { client_secret }",
    body: ActingUserBody,
    response: ClientSecretResponse,
    auth: true,
    handler: async ({ input, request }) =>
      presentClientSecret(await services.payments.createSetupIntent(request.user, input.user_id)),
  });

  apiRoute(app, {
    method: "POST",
    url: "/create-intent",
    tag: "Payment",
    summary: "A Stripe PaymentIntent of 1099 usd for the subscription plan: { client_secret }",
    body: ActingUserBody,
    response: ClientSecretResponse,
    auth: true,
    handler: async ({ input, request }) =>
      presentClientSecret(await services.payments.createPaymentIntent(request.user, input.user_id)),
  });
};
