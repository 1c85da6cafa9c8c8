import type { SubscriptionRow } from "./repository.ts";

/** An active subscription whose period has not ended: paying again would charge twice. */
export function isCurrentSubscription(subscription: SubscriptionRow | undefined, today: string) {
  return (
    subscription?.status === "Active" &&
    (subscription.end_date === null || subscription.end_date >= today)
  );
}
