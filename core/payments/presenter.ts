import { PAYMENT } from "../constants.ts";
import type { PlanRow, SubscriptionRow } from "./repository.ts";

/** The plan on the payment page; the price charged is always the fixed PAYMENT amount. */
export function presentPlan(plan: PlanRow) {
  return {
    plan_id: plan.id,
    plan_name: plan.name,
    plan_description: plan.description,
    plan_price: PAYMENT.amount / 100,
    amount: PAYMENT.amount,
    currency: PAYMENT.currency,
    interval: plan.interval,
  };
}

export type PlanView = ReturnType<typeof presentPlan>;

/** A subscription in the spec's field names (section 3). */
export function presentSubscription(subscription: SubscriptionRow, plan: PlanRow) {
  return {
    plan_name: plan.name,
    plan_description: plan.description,
    plan_price: PAYMENT.amount / 100,
    sub_start_date: subscription.start_date ?? "",
    sub_end_date: subscription.end_date ?? "",
    sub_status: subscription.status,
  };
}

export type SubscriptionView = ReturnType<typeof presentSubscription>;

/** `POST /api/subscriptions_setup_intent` and `/api/create-intent`. */
export function presentClientSecret(clientSecret: string) {
  return { status: "true", client_secret: clientSecret };
}
