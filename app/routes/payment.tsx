import { Suspense, useEffect, useState } from "react";
import { redirect, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { loginRedirectFor } from "../../core/auth/return-path.ts";
import { PAYMENT } from "../../core/constants.ts";
import { ForbiddenError, ValidationError } from "../../core/errors.ts";
import type { PaymentOutcome } from "../../core/payments/service.ts";
import { formatDate, formatPrice } from "../lib/format.ts";
import { pageMeta } from "../lib/meta.ts";
import "../styles/payment.css";
import type { Route } from "./+types/payment";
import { ChunkBoundary, lazyChunk } from "../lib/chunks.tsx";

/** Stripe's card form is a chunk of its own, fetched only here and only with keys configured. */
const PaymentForm = lazyChunk("payment-form", () => import("../components/PaymentForm.tsx"));

/**
 * The subscription payment page (signed in only). Coming back from Stripe with ?payment_intent=…,
 * the server asks Stripe how that payment stands before showing anything.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, user, publicConfig } = context.get(requestContext);
  if (!user) throw redirect(loginRedirectFor(request));
  const paymentIntent = new URL(request.url).searchParams.get("payment_intent");
  let outcome: PaymentOutcome | null = null;
  if (paymentIntent && services.payments.configured) {
    try {
      outcome = await services.payments.completePayment(user, paymentIntent);
    } catch (error) {
      // An unknown payment or another account's: the page says it failed.
      if (!(error instanceof ValidationError || error instanceof ForbiddenError)) throw error;
      outcome = "failed";
    }
  }
  return {
    ...(await services.payments.page(user)),
    userId: user.id,
    publishableKey: publicConfig.stripePublishableKey,
    outcome,
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Subscription", path: "/payment", noindex: true });

const OUTCOME_MESSAGES: Record<PaymentOutcome, { kind: string; text: string }> = {
  succeeded: {
    kind: "success",
    text: "Thank you! Your payment was received and your subscription is active.",
  },
  processing: {
    kind: "success",
    text: "Your payment is processing. Your subscription starts as soon as it completes.",
  },
  failed: { kind: "danger", text: "Your payment did not go through. Please try again." },
};

export default function PaymentPage() {
  const {
    configured,
    plan,
    subscription,
    hasCurrentSubscription,
    userId,
    publishableKey,
    outcome,
  } = useLoaderData<typeof loader>();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const price = formatPrice(PAYMENT.amount / 100, PAYMENT.currency);

  return (
    <div className="container payment-page">
      <h1 className="page-title">Subscription</h1>
      <div aria-live="polite">
        {outcome && (
          <p className={`alert alert-${OUTCOME_MESSAGES[outcome].kind}`}>
            {OUTCOME_MESSAGES[outcome].text}
          </p>
        )}
      </div>
      {!plan ? (
        <p className="no-data">No Data Found</p>
      ) : (
        <section className="card payment-plan" aria-labelledby="plan-name">
          <h2 id="plan-name">{plan.plan_name}</h2>
          <p className="payment-price">
            <strong>{price}</strong> <span>/ {plan.interval}</span>
          </p>
          <p>{plan.plan_description}</p>
          {hasCurrentSubscription && subscription ? (
            <p className="alert alert-success">
              Your subscription is {subscription.sub_status.toLowerCase()}
              {subscription.sub_end_date
                ? ` until ${formatDate(`${subscription.sub_end_date}T00:00:00Z`)}`
                : ""}
              .
            </p>
          ) : !configured || !publishableKey ? (
            <p className="alert alert-info">Payments are not configured on this site.</p>
          ) : mounted ? (
            <ChunkBoundary
              fallback={
                <p className="alert alert-danger" role="alert">
                  The card form could not be loaded (Loading chunk payment-form failed). Check your
                  connection and reload the page.
                </p>
              }
            >
              <Suspense
                fallback={
                  <div className="loading" role="status">
                    <span className="spinner" aria-hidden="true" />
                    <span className="visually-hidden">Loading the card form…</span>
                  </div>
                }
              >
                <PaymentForm publishableKey={publishableKey} userId={userId} />
              </Suspense>
            </ChunkBoundary>
          ) : null}
        </section>
      )}
    </div>
  );
}
