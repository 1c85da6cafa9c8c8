import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findSessionUser, type CurrentUser } from "../../core/auth/sessions.ts";
import { PAYMENT_MESSAGES } from "../../core/constants.ts";
import { ForbiddenError } from "../../core/errors.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { STRIPE_KEYS, startFakeStripe } from "../helpers/stripe.ts";

async function userIds(t: TestApp) {
  const users = await t.deps.db.selectFrom("users").select("id").orderBy("id").limit(4).execute();
  // The demo data gives its first user an active subscription.
  return {
    subscribed: users[0]!.id,
    buyer: users[1]!.id,
    other: users[2]!.id,
    fourth: users[3]!.id,
  };
}

describe("without Stripe keys", () => {
  let t: TestApp;
  let ids: Awaited<ReturnType<typeof userIds>>;
  beforeAll(async () => {
    t = await createTestApp();
    ids = await userIds(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const url of ["/api/subscriptions_setup_intent", "/api/create-intent"]) {
    it(`${url} answers 503 'Payments are not configured.' to a signed-in user`, async () => {
      const client = new TestClient(t.app);
      await client.signInAs(t.deps.db, ids.buyer);
      const response = await client.post(url, { user_id: ids.buyer });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: false, message: PAYMENT_MESSAGES.notConfigured });
    });

    it(`${url} still answers 401 without a session and 403 for another user_id`, async () => {
      const anonymous = await new TestClient(t.app).post(url, { user_id: ids.buyer });
      expect(anonymous.statusCode).toBe(401);
      const client = new TestClient(t.app);
      await client.signInAs(t.deps.db, ids.buyer);
      expect((await client.post(url, { user_id: ids.other })).statusCode).toBe(403);
    });
  }
});

describe("with Stripe keys (a local fake Stripe)", () => {
  let t: TestApp;
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  let ids: Awaited<ReturnType<typeof userIds>>;
  let buyer: TestClient;
  let buyerToken: string;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await createTestApp({ env: { ...STRIPE_KEYS, STRIPE_API_BASE: stripe.base } });
    ids = await userIds(t);
    buyer = new TestClient(t.app);
    buyerToken = await buyer.signInAs(t.deps.db, ids.buyer);
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  function subscriptionsOf(userId: number) {
    return t.deps.db
      .selectFrom("subscriptions")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute();
  }

  async function currentUser(token: string): Promise<CurrentUser> {
    return (await findSessionUser(t.deps.db, token))!;
  }

  it("POST /api/create-intent makes a customer and a PaymentIntent of 1099 usd", async () => {
    stripe.calls.length = 0;
    const response = await buyer.post("/api/create-intent", { user_id: ids.buyer });
    expect(response.statusCode).toBe(200);
    const { client_secret } = response.json();
    expect(client_secret).toMatch(/^pi_fake\d+_secret_x$/);

    expect(stripe.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /v1/customers",
      "POST /v1/payment_intents",
    ]);
    expect(
      stripe.calls.every((c) => c.authorization === `Bearer ${STRIPE_KEYS.STRIPE_SECRET_KEY}`),
    ).toBe(true);
    const [customer, intent] = stripe.calls;
    expect(customer!.form["metadata[user_id]"]).toBe(String(ids.buyer));
    expect(intent!.form).toMatchObject({
      amount: "1099",
      currency: "usd",
      customer: "cus_fake1",
      setup_future_usage: "off_session",
      "automatic_payment_methods[enabled]": "true",
      "metadata[user_id]": String(ids.buyer),
    });

    const rows = await subscriptionsOf(ids.buyer);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "Pending", stripe_customer_id: "cus_fake1" });
    expect(intent!.form["metadata[subscription_id]"]).toBe(String(rows[0]!.id));
  });

  it("a second attempt reuses the customer and the pending subscription", async () => {
    stripe.calls.length = 0;
    const response = await buyer.post("/api/create-intent", {});
    expect(response.statusCode).toBe(200);
    expect(stripe.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /v1/payment_intents"]);
    expect(stripe.calls[0]!.form.customer).toBe("cus_fake1");
    expect(await subscriptionsOf(ids.buyer)).toHaveLength(1);
  });

  it("POST /api/subscriptions_setup_intent answers a SetupIntent's client_secret", async () => {
    stripe.calls.length = 0;
    const response = await buyer.post("/api/subscriptions_setup_intent", { user_id: ids.buyer });
    expect(response.statusCode).toBe(200);
    expect(response.json().client_secret).toMatch(/^seti_fake\d+_secret_x$/);
    expect(stripe.calls).toHaveLength(1);
    expect(stripe.calls[0]!.path).toBe("/v1/setup_intents");
    expect(stripe.calls[0]!.form).toMatchObject({ customer: "cus_fake1", usage: "off_session" });
  });

  it("a succeeded payment activates the subscription once; its id alone proves nothing", async () => {
    const [, intentId] = /^(pi_fake\d+)_secret_x$/.exec(
      (await buyer.post("/api/create-intent", {})).json().client_secret,
    )!;
    const user = await currentUser(buyerToken);
    expect(await t.services.payments.completePayment(user, intentId!)).toBe("failed");
    expect((await subscriptionsOf(ids.buyer))[0]!.status).toBe("Pending");

    stripe.paymentIntents.get(intentId!)!.status = "processing";
    expect(await t.services.payments.completePayment(user, intentId!)).toBe("processing");

    stripe.paymentIntents.get(intentId!)!.status = "succeeded";
    expect(await t.services.payments.completePayment(user, intentId!)).toBe("succeeded");
    const [row] = await subscriptionsOf(ids.buyer);
    expect(row!.status).toBe("Active");
    const page = await t.services.payments.page(user);
    expect(page.hasCurrentSubscription).toBe(true);
    expect(page.subscription).toMatchObject({ sub_status: "Active", plan_price: 10.99 });
    expect(page.subscription!.sub_end_date > page.subscription!.sub_start_date).toBe(true);

    // Someone else cannot claim this payment for their account.
    const other = new TestClient(t.app);
    const otherUser = await currentUser(await other.signInAs(t.deps.db, ids.other));
    await expect(t.services.payments.completePayment(otherUser, intentId!)).rejects.toBeInstanceOf(
      ForbiddenError,
    );

    const again = await buyer.post("/api/create-intent", {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PAYMENT_MESSAGES.alreadyActive);
  });

  it("a user whose subscription is already active is not charged again", async () => {
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, ids.subscribed);
    stripe.calls.length = 0;
    const response = await client.post("/api/create-intent", { user_id: ids.subscribed });
    expect(response.statusCode).toBe(409);
    expect(stripe.calls).toHaveLength(0);
  });

  it("Stripe refusing the call is a 502 with a plain message, not a 500", async () => {
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, ids.fourth);
    stripe.setFailing(true);
    try {
      const response = await client.post("/api/create-intent", {});
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({
        status: false,
        message: PAYMENT_MESSAGES.providerUnavailable,
      });
    } finally {
      stripe.setFailing(false);
    }
  });

  for (const url of ["/api/subscriptions_setup_intent", "/api/create-intent"]) {
    it(`${url}: 401 without a session, 403 for another user_id or without the XSRF header`, async () => {
      stripe.calls.length = 0;
      expect((await new TestClient(t.app).post(url, { user_id: ids.buyer })).statusCode).toBe(401);
      expect((await buyer.post(url, { user_id: ids.other })).statusCode).toBe(403);
      const noXsrf = await buyer.post(url, { user_id: ids.buyer }, { xsrf: false });
      expect(noXsrf.statusCode).toBe(403);
      expect(stripe.calls).toHaveLength(0);
    });
  }
});
