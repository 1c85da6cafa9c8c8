import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";

/** The plan the payment page sells (the first one; the site has a single plan). */
export function findPlan(db: DbOrTx) {
  return db
    .selectFrom("subscription_plans")
    .select(["id", "name", "description", "price_cents", "currency", "interval"])
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
}

export type PlanRow = NonNullable<Awaited<ReturnType<typeof findPlan>>>;

const subscriptionColumns = [
  "subscriptions.id",
  "subscriptions.user_id",
  "subscriptions.plan_id",
  "subscriptions.status",
  "subscriptions.stripe_customer_id",
  // Dates as text: a `date` column would otherwise come back as a local-midnight Date.
  sql<string | null>`to_char(subscriptions.start_date, 'YYYY-MM-DD')`.as("start_date"),
  sql<string | null>`to_char(subscriptions.end_date, 'YYYY-MM-DD')`.as("end_date"),
] as const;

/** A user's latest subscription row (subscriptions_user_idx). */
export function findLatestSubscription(db: DbOrTx, userId: number) {
  return db
    .selectFrom("subscriptions")
    .select(subscriptionColumns)
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export type SubscriptionRow = NonNullable<Awaited<ReturnType<typeof findLatestSubscription>>>;

export function findSubscription(db: DbOrTx, id: number, userId: number) {
  return db
    .selectFrom("subscriptions")
    .select(subscriptionColumns)
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/** The Stripe customer already made for a user, from any of their subscription rows. */
export async function findStripeCustomerId(db: DbOrTx, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom("subscriptions")
    .select("stripe_customer_id")
    .where("user_id", "=", userId)
    .where("stripe_customer_id", "<>", "")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.stripe_customer_id ?? null;
}

export async function insertPendingSubscription(
  db: DbOrTx,
  row: { user_id: number; plan_id: number; stripe_customer_id: string; created_at: Date },
): Promise<number> {
  const inserted = await db
    .insertInto("subscriptions")
    .values({ ...row, status: "Pending" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function setStripeCustomerId(db: DbOrTx, id: number, customerId: string) {
  await db
    .updateTable("subscriptions")
    .set({ stripe_customer_id: customerId })
    .where("id", "=", id)
    .execute();
}

/** Marks a pending subscription paid; a row that is already active is left as it is. */
export async function activateSubscription(
  db: DbOrTx,
  id: number,
  period: { start: string; end: string },
): Promise<boolean> {
  const result = await db
    .updateTable("subscriptions")
    .set({ status: "Active", start_date: period.start, end_date: period.end })
    .where("id", "=", id)
    .where("status", "=", "Pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
