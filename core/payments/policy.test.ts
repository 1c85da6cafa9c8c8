import { describe, expect, it } from "vitest";
import { isCurrentSubscription } from "./policy.ts";
import type { SubscriptionRow } from "./repository.ts";

const TODAY = "2026-03-01";

function subscription(status: string, endDate: string | null): SubscriptionRow {
  return {
    id: 1,
    user_id: 1,
    plan_id: 1,
    status,
    stripe_customer_id: "",
    start_date: "2026-02-01",
    end_date: endDate,
  };
}

describe("isCurrentSubscription: paying again would charge twice", () => {
  it("is true for an active subscription that has not ended", () => {
    expect(isCurrentSubscription(subscription("Active", "2026-03-15"), TODAY)).toBe(true);
    expect(isCurrentSubscription(subscription("Active", TODAY), TODAY)).toBe(true);
    expect(isCurrentSubscription(subscription("Active", null), TODAY)).toBe(true);
  });

  it("is false for an ended, inactive or missing subscription", () => {
    expect(isCurrentSubscription(subscription("Active", "2026-02-28"), TODAY)).toBe(false);
    expect(isCurrentSubscription(subscription("Cancelled", "2026-03-15"), TODAY)).toBe(false);
    expect(isCurrentSubscription(subscription("Pending", null), TODAY)).toBe(false);
    expect(isCurrentSubscription(undefined, TODAY)).toBe(false);
  });
});
