import { randomBytes } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { insertEmailToken } from "../../core/accounts/repository.ts";
import { hashPassword } from "../../core/auth/password.ts";
import { hashToken } from "../../core/auth/sessions.ts";
import { createMailer } from "../../core/mail/mailer.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { multipartBody, pngImage } from "./multipart.ts";
import { DEFAULT_CLIENTS, startOidcProvider, type OidcProvider } from "./oidc.ts";
import { TestClient } from "./session.ts";
import { startSmtpCapture, type SmtpCapture } from "./smtp.ts";
import { STRIPE_KEYS, startFakeStripe } from "./stripe.ts";
import { createTestUser } from "./users.ts";

/**
 * A valid request for every call of the JSON API, on a test app with the real parts those calls
 * need around it: an SMTP server (mailed codes), an OpenID provider (social sign-in) and a local
 * Stripe. Shared by the contract test (the answers match the declared schemas) and the fuzz test
 * (each field of these requests replaced by malformed values).
 */

export const STRONG_PASSWORD = "Chalk#Board42";

export interface ApiWorld {
  t: TestApp;
  smtp: SmtpCapture;
  oidc: OidcProvider;
  /** A confirmed member, signed in. */
  member: { id: number; client: TestClient };
  /** A member with a password (STRONG_PASSWORD), signed in. */
  withPassword: { id: number; email: string; client: TestClient };
  ids: {
    otherUser: number;
    deal: { id: number; unique_id: string; slug: string };
    storeId: number;
    storeSlug: string;
    categoryId: number;
    categorySlug: string;
    dealCategoryId: number;
    discussionCategoryId: number;
  };
  image: Buffer;
  close(): Promise<void>;
}

export async function startApiWorld(options: { pages?: boolean } = {}): Promise<ApiWorld> {
  const smtp = await startSmtpCapture();
  const oidc = await startOidcProvider();
  const stripe = await startFakeStripe();
  const t = await createTestApp({
    pages: options.pages,
    env: { ...oidc.env(), ...STRIPE_KEYS, STRIPE_API_BASE: stripe.base },
    mailer: createMailer({
      smtpUrl: smtp.url,
      from: "Chalkboard Deals <no-reply@chalkboard.test>",
      outboxDir: "/nonexistent",
      log: () => {},
    }),
  });
  const db = t.deps.db;

  const memberId = await createTestUser(db, { name: "Contract Member" });
  const member = new TestClient(t.app);
  await member.signInAs(db, memberId);

  const email = `with-password-${randomBytes(4).toString("hex")}@example.com`;
  const withPasswordRow = await db
    .insertInto("users")
    .values({
      name: "Password Member",
      email,
      password_hash: await hashPassword(STRONG_PASSWORD),
      user_type: "Teacher",
      email_verified_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const withPassword = new TestClient(t.app);
  await withPassword.signInAs(db, withPasswordRow.id);

  const deal = await db
    .selectFrom("posts")
    .select(["id", "unique_id", "slug"])
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const store = await db
    .selectFrom("stores")
    .select(["id", "slug"])
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const category = await db
    .selectFrom("categories")
    .select(["id", "slug"])
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const forumCategory = (kind: "deal" | "discussion") =>
    db
      .selectFrom("forum_categories")
      .select("id")
      .where("kind", "=", kind)
      .orderBy("id")
      .executeTakeFirstOrThrow();
  const other = await db
    .selectFrom("users")
    .select("id")
    .where("id", "!=", memberId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .executeTakeFirstOrThrow();

  return {
    t,
    smtp,
    oidc,
    member: { id: memberId, client: member },
    withPassword: { id: withPasswordRow.id, email, client: withPassword },
    ids: {
      otherUser: other.id,
      deal,
      storeId: store.id,
      storeSlug: store.slug,
      categoryId: category.id,
      categorySlug: category.slug,
      dealCategoryId: (await forumCategory("deal")).id,
      discussionCategoryId: (await forumCategory("discussion")).id,
    },
    image: await pngImage(),
    async close() {
      await t.close();
      await stripe.close();
      await oidc.close();
      await smtp.close();
    },
  };
}

/** One request of a call: who sends it and what. */
export interface ApiRequest {
  client: TestClient;
  body?: Record<string, unknown>;
  /** Sent as multipart/form-data, with this image when given. */
  multipart?: { image?: Buffer };
}

let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${randomBytes(3).toString("hex")}`;

async function freshMember(world: ApiWorld, options: { confirmed?: boolean } = {}) {
  const id = await createTestUser(world.t.deps.db, options);
  const client = new TestClient(world.t.app);
  await client.signInAs(world.t.deps.db, id);
  return { id, client };
}

/** A signed-in moderator or admin, for the console's calls. */
async function staffClient(world: ApiWorld, role: "moderator" | "admin") {
  const { id, client } = await freshMember(world);
  await world.t.deps.db.updateTable("users").set({ role }).where("id", "=", id).execute();
  return client;
}

/** A code as the mailed links carry it, stored for `userId` as `purpose`. */
async function emailCode(world: ApiWorld, userId: number, purpose: "confirm" | "reset") {
  const code = randomBytes(32).toString("base64url");
  await insertEmailToken(world.t.deps.db, {
    userId,
    purpose,
    tokenHash: hashToken(code),
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  });
  return code;
}

async function socialToken(world: ApiWorld) {
  const sub = unique("contract-sub");
  const email = `${sub}@example.com`;
  const idToken = await world.oidc.idToken(DEFAULT_CLIENTS.google, {
    sub,
    email,
    email_verified: true,
    name: "Social Member",
  });
  return {
    provider: "google",
    provider_id: sub,
    name: "Social Member",
    email,
    profile_img: "",
    id_token: idToken,
  };
}

const visitor = (world: ApiWorld) => new TestClient(world.t.app);

/**
 * A valid request for each call, by "METHOD /url". Each call of a function prepares a fresh one,
 * so calls that use something up (a code, a session, an account) can be made again and again.
 */
export const API_CALLS: Record<string, (world: ApiWorld) => Promise<ApiRequest>> = {
  "GET /health": async (w) => ({ client: visitor(w) }),
  "GET /general_settings": async (w) => ({ client: visitor(w) }),
  "GET /social": async (w) => ({ client: visitor(w) }),
  "GET /stores_list": async (w) => ({ client: visitor(w) }),
  "GET /category_list": async (w) => ({ client: visitor(w) }),
  "GET /featured_stores": async (w) => ({ client: visitor(w) }),
  "GET /submit_deal": async (w) => ({ client: visitor(w) }),
  "GET /forums": async (w) => ({ client: visitor(w) }),

  "POST /home": async (w) => ({ client: visitor(w), body: { user_id: "" } }),
  "POST /recent_deal_pagination": async (w) => ({ client: visitor(w), body: { page: 2 } }),
  "POST /category_store_filter_home": async (w) => ({
    client: visitor(w),
    body: { store_id: w.ids.storeId, category_id: "", page: 1 },
  }),
  "POST /stores_list": async (w) => ({ client: visitor(w), body: { page: 1 } }),
  "POST /category_list": async (w) => ({ client: visitor(w), body: { page: 1 } }),
  "POST /category_page": async (w) => ({
    client: visitor(w),
    body: { slug: w.ids.storeSlug, type: "store", page: 1 },
  }),
  "POST /filter": async (w) => ({
    client: visitor(w),
    body: {
      store_id: "",
      category_id: w.ids.categoryId,
      page: 1,
      min_discount: 0,
      max_discount: 100,
      min_price: 0,
      max_price: 100000,
      filter_type: "category",
      search_title: "",
    },
  }),
  "POST /product_details": async (w) => ({
    client: visitor(w),
    body: { user_id: "", unique_id: w.ids.deal.unique_id, slug: w.ids.deal.slug, type: "d" },
  }),
  "POST /cms_page": async (w) => ({ client: visitor(w), body: { slug: "privacy-policy" } }),
  "POST /contact_us": async (w) => ({
    client: visitor(w),
    body: {
      name: "Pat Contract",
      category: "inquiry",
      subject: "A question",
      email: "pat@example.com",
      mobile: "5551234567",
      website: "example.com",
      message: "Hello,\nis this deal still on?",
    },
  }),

  "POST /save_deal": async (w) => ({
    client: w.member.client,
    body: {
      user_id: w.member.id,
      deal_category: w.ids.dealCategoryId,
      store_id: w.ids.storeId,
      category_id: w.ids.categoryId,
      title: "Contract test laminator",
      deal_description: "<p>A laminator for the classroom.</p>",
      price: "19.99",
      discount: "20",
      expiry: "2999-12-31",
      deal_image: "",
    },
    multipart: { image: w.image },
  }),
  "POST /save_discussion": async (w) => ({
    client: w.member.client,
    body: {
      user_id: w.member.id,
      forum_category_id: w.ids.discussionCategoryId,
      title: "How do you teach fractions?",
      detail: "<p>Share your ideas.</p>",
    },
    multipart: {},
  }),
  "POST /product_like_unlike": async (w) => ({
    client: w.member.client,
    body: { user_id: w.member.id, post_id: w.ids.deal.id, post_type: "d", btn_type: "like" },
  }),
  "POST /product_add_comment": async (w) => ({
    client: w.member.client,
    body: {
      user_id: w.member.id,
      post_id: w.ids.deal.id,
      post_type: "d",
      comment_id: "",
      comment_text: "Thanks for sharing!",
    },
  }),

  "POST /user_dashboard": async (w) => ({
    client: w.member.client,
    body: { user_id: w.member.id, page: 1 },
  }),
  "POST /user": async (w) => ({ client: w.member.client, body: { user_id: w.member.id } }),
  "POST /user_profile": async (w) => ({
    client: visitor(w),
    body: { loggedin_user_id: "", user_id: w.ids.otherUser, page: 1 },
  }),
  "POST /profile_follow": async (w) => ({
    client: w.member.client,
    body: { loggedin_user_id: w.member.id, user_id: w.ids.otherUser, status: "Follow" },
  }),
  "POST /profile_update": async (w) => ({
    client: w.member.client,
    body: {
      user_id: w.member.id,
      name: "Contract Member",
      email: "ignored@example.com",
      mobile: "5551234567",
      website: "example.com/me",
      dob: "1990-05-01",
      gender: "female",
      brief: "Teacher.\nParent.",
      address: "1 School Road",
    },
    multipart: { image: w.image },
  }),

  "POST /signup": async (w) => ({
    client: visitor(w),
    body: {
      name: "New Member",
      email: `${unique("signup")}@example.com`,
      password: STRONG_PASSWORD,
    },
  }),
  "POST /verify": async (w) => {
    const { id } = await freshMember(w, { confirmed: false });
    return { client: visitor(w), body: { confirmation_code: await emailCode(w, id, "confirm") } };
  },
  "POST /resend_confirmation": async (w) => ({
    client: visitor(w),
    body: { email: w.withPassword.email },
  }),
  "POST /signin": async (w) => ({
    client: visitor(w),
    body: { email: w.withPassword.email, password: STRONG_PASSWORD },
  }),
  "POST /logout": async (w) => ({ client: (await freshMember(w)).client }),
  "POST /forgot_password": async (w) => ({
    client: visitor(w),
    body: { email: w.withPassword.email },
  }),
  "POST /reset_password": async (w) => {
    const { id } = await freshMember(w);
    return {
      client: visitor(w),
      body: {
        token: await emailCode(w, id, "reset"),
        password: STRONG_PASSWORD,
        password_confirmation: STRONG_PASSWORD,
      },
    };
  },
  "POST /change_password": async (w) => ({
    client: w.withPassword.client,
    body: {
      old_password: STRONG_PASSWORD,
      new_password: STRONG_PASSWORD,
      new_password_confirmation: STRONG_PASSWORD,
      user_id: w.withPassword.id,
    },
  }),
  "POST /user_deleted": async (w) => {
    const { id, client } = await freshMember(w);
    return { client, body: { user_id: id } };
  },
  "POST /social_signin": async (w) => ({ client: visitor(w), body: await socialToken(w) }),
  "POST /social_signin_deleted": async (w) => {
    // The account's own session, freshly signed in with the same token (docs/decisions/0026).
    const body = await socialToken(w);
    const client = visitor(w);
    const created = await client.post("/api/social_signin", body);
    if (created.statusCode !== 200) throw new Error(`social sign-in failed: ${created.body}`);
    return { client, body };
  },

  // Moderation and notifications (issue 10).
  // A member is reported (reports of a post would hide the shared deal after three).
  "POST /report": async (w) => ({
    client: (await freshMember(w)).client,
    body: { item_type: "user", item_id: w.ids.otherUser, reason: "spam", note: "Only adverts." },
  }),
  "GET /notifications": async (w) => ({ client: w.member.client }),
  "POST /notifications_read": async (w) => ({ client: w.member.client, body: {} }),
  "GET /admin/reports": async (w) => ({ client: await staffClient(w, "moderator") }),
  "POST /admin/moderate": async (w) => ({
    client: await staffClient(w, "moderator"),
    body: { item_type: "d", item_id: w.ids.deal.unique_id, action: "restore", reason: "" },
  }),

  "POST /subscriptions_setup_intent": async (w) => ({
    client: w.member.client,
    body: { user_id: w.member.id },
  }),
  "POST /create-intent": async (w) => ({
    client: w.member.client,
    body: { user_id: w.member.id },
  }),
};

/** Sends a request: JSON, or multipart/form-data (primitive fields only, as a form sends them). */
export async function send(
  method: string,
  url: string,
  request: ApiRequest,
  body: unknown = request.body,
): Promise<LightMyRequestResponse> {
  if (method === "GET") return request.client.get(url);
  const isForm =
    request.multipart &&
    body !== null &&
    typeof body === "object" &&
    !Array.isArray(body) &&
    Object.values(body).every((v) => v === null || typeof v !== "object");
  if (isForm) {
    const fields: Record<string, string> = {};
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      if (value !== undefined && value !== null) fields[name] = String(value);
    }
    const image = request.multipart!.image;
    const form = await multipartBody(
      fields,
      image ? { name: "image.png", type: "image/png", bytes: image } : undefined,
    );
    return request.client.request({ method, url, ...form });
  }
  return request.client.request({
    method,
    url,
    headers: { "content-type": "application/json" },
    payload: body === undefined ? "{}" : JSON.stringify(body),
  });
}
