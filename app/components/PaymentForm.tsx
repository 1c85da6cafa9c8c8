import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import type { Stripe } from "@stripe/stripe-js";
import { useEffect, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { PAYMENT } from "../../core/constants.ts";
import { apiCall } from "../lib/api.ts";
import { formatPrice } from "../lib/format.ts";

interface PaymentFormProps {
  publishableKey: string;
  userId: number;
}

const PRICE = formatPrice(PAYMENT.amount / 100, PAYMENT.currency);

function CheckoutForm({ userId }: { userId: number }) {
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const [error, setError] = useState("");
  const [paying, setPaying] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setPaying(true);
    setError("");
    // The card details are checked by Stripe before the server makes the PaymentIntent.
    const checked = await elements.submit();
    if (checked.error) {
      setError(checked.error.message ?? "Please check your card details.");
      setPaying(false);
      return;
    }
    const intent = await apiCall("/create-intent", {
      user_id: userId,
    });
    if (!intent.ok || !intent.data.client_secret) {
      setError(
        (!intent.ok && intent.data.message) ||
          "The payment could not be started. Please try again.",
      );
      setPaying(false);
      return;
    }
    const result = await stripe.confirmPayment({
      elements,
      clientSecret: intent.data.client_secret,
      confirmParams: { return_url: `${window.location.origin}/payment` },
      redirect: "if_required",
    });
    if (result.error) {
      setError(result.error.message ?? "Your payment did not go through. Please try again.");
      setPaying(false);
      return;
    }
    // The page's loader asks Stripe how the payment stands; the browser's word is not enough.
    navigate(`/payment?payment_intent=${encodeURIComponent(result.paymentIntent.id)}`, {
      replace: true,
    });
  }

  return (
    <form className="payment-form" onSubmit={onSubmit}>
      <PaymentElement />
      <p className="field-error" role="alert">
        {error}
      </p>
      <button type="submit" className="btn btn-primary" disabled={!stripe || paying}>
        {paying ? "Loading…" : `Pay ${PRICE}`}
      </button>
    </form>
  );
}

/**
 * Stripe's Payment Element for the subscription's fixed amount (loaded lazily by the payment page;
 * Stripe.js itself is fetched from js.stripe.com only here). The PaymentIntent is made when the
 * person pays, not when the page opens.
 */
export default function PaymentForm({ publishableKey, userId }: PaymentFormProps) {
  const [stripe, setStripe] = useState<Stripe | null | undefined>(undefined);

  useEffect(() => {
    let active = true;
    loadStripe(publishableKey).then(
      (loaded) => active && setStripe(loaded),
      () => active && setStripe(null),
    );
    return () => {
      active = false;
    };
  }, [publishableKey]);

  if (stripe === undefined) {
    return (
      <div className="loading" role="status">
        <span className="spinner" aria-hidden="true" />
        <span className="visually-hidden">Loading the card form…</span>
      </div>
    );
  }
  if (stripe === null) {
    return (
      <p className="alert alert-danger" role="alert">
        The card form could not be loaded. Please check your connection and reload the page.
      </p>
    );
  }
  return (
    <Elements
      stripe={stripe}
      options={{
        mode: "payment",
        amount: PAYMENT.amount,
        currency: PAYMENT.currency,
        setupFutureUsage: "off_session",
        appearance: { theme: "stripe", variables: { colorPrimary: "#353f66" } },
      }}
    >
      <CheckoutForm userId={userId} />
    </Elements>
  );
}
