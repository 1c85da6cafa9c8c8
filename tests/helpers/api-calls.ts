import { createECDH, randomBytes, randomUUID } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { insertEmailToken } from "../../core/people/accounts/repository.ts";
import { hashPassword } from "../../core/auth/password.ts";
import { hashToken } from "../../core/auth/sessions.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { insertComment, insertPost, signedInStaff } from "./console.ts";
import {
  insertPendingWishlistEntry,
  insertReviewRequest,
  insertSchoolEmailRequest,
  markVerifiedEducator,
} from "./educators.ts";
import { multipartBody, pngImage } from "./multipart.ts";
import { startProductPages, type ProductPages } from "./product-pages.ts";
import { DEFAULT_CLIENTS, startOidcProvider, type OidcProvider } from "./oidc.ts";
import { TestClient } from "./session.ts";
import { startSmtpCapture, type SmtpCapture, smtpMailer } from "./smtp.ts";
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
  /** Shop pages for `POST /link_preview` (the app may fetch loopback addresses). */
  productPages: ProductPages;
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
  const productPages = await startProductPages();
  const t = await createTestApp({
    pages: options.pages,
    env: {
      ...oidc.env(),
      ...STRIPE_KEYS,
      STRIPE_API_BASE: stripe.base,
      LINK_CHECK_ALLOW_LOOPBACK: "on",
    },
    mailer: smtpMailer(smtp),
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
    productPages,
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
      await productPages.close();
    },
  };
}

/** One request of a call: who sends it and what. */
export interface ApiRequest {
  client: TestClient;
  body?: Record<string, unknown>;
  /** Sent as multipart/form-data, with this image when given. */
  multipart?: { image?: Buffer };
  /** A GET call's query (a call that needs one, such as which member's votes). */
  query?: Record<string, string>;
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
async function emailCode(
  world: ApiWorld,
  userId: number,
  purpose: "confirm" | "reset" | "email_change",
) {
  const code = randomBytes(32).toString("base64url");
  await insertEmailToken(world.t.deps.db, {
    userId,
    purpose,
    tokenHash: hashToken(code),
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    ...(purpose === "email_change" ? { newEmail: `${unique("changed-to")}@example.com` } : {}),
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

/** A live public deal with a coupon code (or without one), by its unique_id. */
async function liveDealId(world: ApiWorld, coupon: boolean): Promise<string> {
  const row = await world.t.deps.db
    .selectFrom("posts")
    .select("unique_id")
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .where("coupon_code", coupon ? "<>" : "=", "")
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", new Date())]))
    .orderBy("id")
    .executeTakeFirstOrThrow();
  return row.unique_id;
}

/** A fresh, signed-in staff member of `role` (the console's users and settings calls). */
async function freshStaff(world: ApiWorld, role: "moderator" | "admin") {
  const staff = await freshMember(world);
  await world.t.deps.db.updateTable("users").set({ role }).where("id", "=", staff.id).execute();
  return staff;
}

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
  "POST /link_preview": async (w) => ({
    client: w.member.client,
    body: { link: `${w.productPages.origin}/shopify.html` },
  }),
  "POST /price_history": async (w) => ({
    client: visitor(w),
    body: { unique_id: w.ids.deal.unique_id },
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
  "POST /my_reactions": async (w) => ({
    client: w.member.client,
    body: { post_ids: [w.ids.deal.id] },
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
  "POST /comment_like": async (w) => ({
    client: w.member.client,
    // Another member's comment: one's own may not be liked (record 0092).
    body: {
      user_id: w.member.id,
      comment_id: await insertComment(w.t.deps.db, {
        postId: w.ids.deal.id,
        userId: w.ids.otherUser,
      }),
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
  "POST /email_change": async (w) => ({
    client: w.withPassword.client,
    body: {
      email: `${unique("new-address")}@example.com`,
      password: STRONG_PASSWORD,
      user_id: w.withPassword.id,
    },
  }),
  "POST /confirm_email_change": async (w) => {
    const { id } = await freshMember(w);
    return { client: visitor(w), body: { token: await emailCode(w, id, "email_change") } };
  },
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

  // Moderation and notifications (record 0031).
  // A member is reported (reports of a post would hide the shared deal after three).
  "POST /report": async (w) => ({
    client: (await freshMember(w)).client,
    body: { item_type: "user", item_id: w.ids.otherUser, reason: "spam", note: "Only adverts." },
  }),
  "POST /mark_expired": async (w) => {
    const deal = await insertPost(w.t.deps.db, {
      user_id: w.ids.otherUser,
      store_id: w.ids.storeId,
    });
    return { client: (await freshMember(w)).client, body: { unique_id: deal.unique_id } };
  },
  "POST /reopen_deal": async (w) => {
    const deal = await insertPost(w.t.deps.db, {
      user_id: w.ids.otherUser,
      expires_at: new Date(Date.now() - 60_000),
      expired: true,
    });
    return { client: await staffClient(w, "moderator"), body: { unique_id: deal.unique_id } };
  },
  "GET /notifications": async (w) => ({ client: w.member.client }),
  // "Download my data" (record 0084): the demo member's file.
  "GET /my_data": async (w) => ({ client: w.member.client }),
  "GET /offline_saved_deals": async (w) => ({ client: w.member.client }),
  "POST /user/reputation": async (w) => ({ client: w.member.client, body: { page: 1 } }),
  "POST /community_top": async (w) => ({ client: visitor(w), body: { page: 1 } }),
  "GET /admin/reputation_levels": async (w) => ({
    client: (await freshStaff(w, "admin")).client,
  }),
  "POST /admin/reputation_levels": async (w) => ({
    client: (await freshStaff(w, "admin")).client,
    body: { member_points: 10, regular_points: 50, trusted_points: 200 },
  }),

  // Keyword alerts (record 0045): each call on an alert of a fresh member's own.
  "POST /alerts": async (w) => ({ client: w.member.client, body: {} }),
  "POST /alert_save": async (w) => ({
    client: (await freshMember(w)).client,
    body: { id: "", keywords: "crayons", store_id: [w.ids.storeId], delivery: "instant" },
  }),
  "POST /alert_delete": async (w) => {
    const { client } = await freshMember(w);
    return { client, body: { id: await savedAlertId(client) } };
  },
  "POST /alert_rss_revoke": async (w) => {
    const { client } = await freshMember(w);
    return { client, body: { id: await savedAlertId(client) } };
  },
  "POST /alert_preview": async (w) => ({
    client: w.member.client,
    body: { keywords: "deal", store_id: [], max_price: 500 },
  }),

  // Freshness (record 0038): a fresh member (never the poster) answers on a live public deal.
  "POST /coupon_feedback": async (w) => ({
    client: (await freshMember(w)).client,
    body: { unique_id: await liveDealId(w, true), worked: true },
  }),
  "POST /confirm_deal": async (w) => ({
    client: (await freshMember(w)).client,
    body: { unique_id: await liveDealId(w, false) },
  }),
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

  // The console: users (core/people/roles) and settings (core/settings).
  "GET /admin/users": async (w) => ({ client: (await freshStaff(w, "moderator")).client }),
  "POST /admin/users/role": async (w) => ({
    client: (await freshStaff(w, "admin")).client,
    body: { user_id: (await freshMember(w)).id, role: "moderator", reason: "Trusted member" },
  }),
  "POST /admin/suspend": async (w) => ({
    client: (await freshStaff(w, "moderator")).client,
    body: { user_id: (await freshMember(w)).id, reason: "Spam links", until: "2999-01-01" },
  }),
  "POST /admin/unsuspend": async (w) => {
    const { id } = await freshMember(w);
    await w.t.deps.db
      .updateTable("users")
      .set({ suspended_at: new Date(), suspension_reason: "Spam links" })
      .where("id", "=", id)
      .execute();
    return { client: (await freshStaff(w, "moderator")).client, body: { user_id: id } };
  },
  "POST /admin/users/verified_educator": async (w) => ({
    client: (await freshStaff(w, "moderator")).client,
    body: { user_id: (await freshMember(w)).id, verified: true },
  }),
  // Vote integrity (record 0091): a member's votes; a warning, then a block, then lifting it.
  "GET /admin/users/votes": async (w) => ({
    client: (await freshStaff(w, "moderator")).client,
    query: { user_id: String(w.member.id) },
  }),
  "POST /admin/users/vote_warning": async (w) => ({
    client: (await freshStaff(w, "moderator")).client,
    body: { user_id: (await freshMember(w)).id, reason: "Votes on one member's deals only" },
  }),
  "POST /admin/users/vote_block": async (w) => {
    const { id } = await freshMember(w);
    await w.t.deps.db
      .insertInto("voting_restrictions")
      .values({ user_id: id, kind: "warning", reason: "Votes on one member's deals only" })
      .execute();
    return {
      client: (await freshStaff(w, "moderator")).client,
      body: {
        user_id: id,
        reason: "Kept on after a warning",
        until: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      },
    };
  },
  "POST /admin/users/vote_unblock": async (w) => {
    const { id } = await freshMember(w);
    await w.t.deps.db
      .insertInto("voting_restrictions")
      .values({
        user_id: id,
        kind: "block",
        reason: "Kept on after a warning",
        ends_at: new Date(Date.now() + 86_400_000),
      })
      .execute();
    return { client: (await freshStaff(w, "moderator")).client, body: { user_id: id } };
  },
  "POST /admin/users/delete": async (w) => ({
    client: (await freshStaff(w, "admin")).client,
    body: { user_id: (await freshMember(w)).id, reason: "Spam account" },
  }),
  "GET /admin/settings": async (w) => ({ client: (await freshStaff(w, "admin")).client }),
  "POST /admin/settings": async (w) => {
    // The site's own values sent back: valid, and nothing the other calls see changes.
    const db = w.t.deps.db;
    const general = await db
      .selectFrom("general_settings")
      .selectAll()
      .where("id", "=", 1)
      .executeTakeFirstOrThrow();
    return {
      client: (await freshStaff(w, "admin")).client,
      body: {
        website_name: general.website_name,
        website_keywords: general.website_keywords,
        website_description: general.website_description,
        educator_post_unique_id: general.educator_post_unique_id,
        copyright_text: "Chalkboard Deals. All rights reserved.",
        playstore_url: "https://play.google.com/store/apps/details?id=com.chalkboarddeals.app",
        app_store_url: "https://apps.apple.com/us/app/chalkboard-deals/id0000000000",
        report_hide_threshold: 3,
        hold_new_user_posts: false,
        hold_new_user_days: 7,
        expiry_mark_threshold: 3,
        newcomer_link_posts: general.newcomer_link_posts,
        newcomer_until_level: general.newcomer_until_level,
        newcomer_link_cap: general.newcomer_link_cap,
      },
    };
  },
  "POST /admin/settings/image": async (w) => ({
    client: (await freshStaff(w, "admin")).client,
    body: { field: "play_store_image" },
    multipart: { image: w.image },
  }),
  // The weekly digest's schedule (server/api/admin-digest.ts): the stored one sent back.
  "GET /admin/settings/digest": async (w) => ({ client: (await freshStaff(w, "admin")).client }),
  "POST /admin/settings/digest": async (w) => {
    const row = await w.t.deps.db
      .selectFrom("general_settings")
      .select(["digest_weekday", "digest_hour"])
      .where("id", "=", 1)
      .executeTakeFirst();
    return {
      client: (await freshStaff(w, "admin")).client,
      body: { digest_weekday: row?.digest_weekday ?? 5, digest_hour: row?.digest_hour ?? 9 },
    };
  },
  "POST /admin/blocked_domains/add": async (w) => ({
    client: (await freshStaff(w, "admin")).client,
    body: { domain: `https://www.${unique("blocked")}.example/deals` },
  }),
  "POST /admin/blocked_domains/remove": async (w) => {
    const domain = `${unique("unblocked")}.example`;
    await w.t.deps.db.insertInto("blocked_domains").values({ domain }).execute();
    return { client: (await freshStaff(w, "admin")).client, body: { domain } };
  },
  // The console's Mail page (server/api/admin-mail.ts): administrators.
  "GET /admin/mail": async (w) => ({ client: (await freshStaff(w, "admin")).client }),
  "GET /admin/mail/undeliverable": async (w) => {
    await w.t.deps.db
      .insertInto("undeliverable_addresses")
      .values({ address: `${unique("listed")}@example.com`, reason: "550", failed_at: new Date() })
      .execute();
    return { client: (await freshStaff(w, "admin")).client };
  },
  "POST /admin/mail/undeliverable/clear": async (w) => {
    const address = `${unique("bounced")}@example.com`;
    await w.t.deps.db
      .insertInto("undeliverable_addresses")
      .values({ address, reason: "550 5.1.1 No such user", failed_at: new Date() })
      .execute();
    return { client: (await freshStaff(w, "admin")).client, body: { address } };
  },
  // The console's content calls (server/api/admin-posts-and-comments.ts).
  "GET /admin/dashboard": async (w) => ({ client: (await moderator(w)).client }),
  "GET /admin/posts": async (w) => ({ client: (await moderator(w)).client }),
  "POST /admin/posts/update": async (w) => ({
    client: (await moderator(w)).client,
    body: {
      unique_id: (await insertPost(w.t.deps.db)).unique_id,
      title: "Edited in the console",
      price: "12.50",
      list_price: "25",
      deal_badge: "Hot",
      reason: "Clearer title",
    },
  }),
  "POST /admin/posts/merge_product": async (w) => ({
    client: (await moderator(w)).client,
    body: {
      unique_id: (await insertPost(w.t.deps.db, { price: 20 })).unique_id,
      into_unique_id: (await insertPost(w.t.deps.db, { price: 25 })).unique_id,
      reason: "Same product",
    },
  }),
  "POST /admin/posts/bulk": async (w) => ({
    client: (await moderator(w)).client,
    body: { ids: [(await insertPost(w.t.deps.db)).unique_id], action: "feature", reason: "" },
  }),
  "POST /admin/posts/delete": async (w) => ({
    client: (await signedInStaff(w.t.app, w.t.deps.db, "admin")).client,
    body: { ids: [(await insertPost(w.t.deps.db)).unique_id], reason: "Spam" },
  }),
  "GET /admin/comments": async (w) => ({ client: (await moderator(w)).client }),
  "POST /admin/comments/bulk": async (w) => ({
    client: (await moderator(w)).client,
    body: { ids: [await consoleComment(w)], action: "hide", reason: "Off topic" },
  }),
  "POST /admin/comments/delete": async (w) => ({
    client: (await signedInStaff(w.t.app, w.t.deps.db, "admin")).client,
    body: { ids: [await consoleComment(w)], reason: "Abuse" },
  }),
  "GET /admin/audit": async (w) => ({ client: (await moderator(w)).client }),
  // The console's content (record 0033): stores and categories, featured stores, the Teachers
  // Wishlist, social links, forums, CMS pages, contact messages.
  "GET /admin/stores": async (w) => ({ client: await contentStaff(w, "moderator") }),
  "POST /admin/stores/create": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      title: unique("Contract Store"),
      slug: "",
      description: "A store.",
      link: "example.com",
    },
    multipart: { image: w.image },
  }),
  "POST /admin/stores/update": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      id: await freshCatalogRow(w, "stores"),
      title: unique("Renamed Store"),
      slug: "",
      description: "Line one.\nLine two.",
      link: "https://www.example.com/",
      remove_image: "",
    },
    multipart: { image: w.image },
  }),
  "POST /admin/stores/delete": async (w) => ({
    client: await contentStaff(w, "admin"),
    body: { id: await freshCatalogRow(w, "stores"), move_to: "" },
  }),
  "GET /admin/categories": async (w) => ({ client: await contentStaff(w, "moderator") }),
  "POST /admin/categories/create": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { title: unique("Contract Category"), slug: "", description: "" },
    multipart: { image: w.image },
  }),
  "POST /admin/categories/update": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      id: await freshCatalogRow(w, "categories"),
      title: unique("Renamed Category"),
      slug: unique("renamed-category"),
      description: "Pens and pencils.",
      remove_image: "true",
    },
    multipart: {},
  }),
  "POST /admin/categories/delete": async (w) => ({
    client: await contentStaff(w, "admin"),
    body: { id: await freshCatalogRow(w, "categories"), move_to: "" },
  }),
  "GET /admin/featured": async (w) => ({ client: await contentStaff(w, "moderator") }),
  "POST /admin/featured/add": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { store_id: await freshCatalogRow(w, "stores") },
  }),
  "POST /admin/featured/remove": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { store_id: await freshCatalogRow(w, "stores", { featured: true }) },
  }),
  "POST /admin/featured/move": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { store_id: await freshCatalogRow(w, "stores", { featured: true }), direction: "up" },
  }),
  "GET /admin/wishlist": async (w) => ({ client: await contentStaff(w, "moderator") }),
  "POST /admin/wishlist/create": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      first_name: "Ana",
      last_name: "Contract",
      school_location: "Springfield Elementary, IL",
      amazon_wishlist: "https://www.amazon.com/hz/wishlist/ls/CONTRACT1",
    },
  }),
  "POST /admin/wishlist/update": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      id: await freshWishlistEntry(w),
      first_name: "Ana",
      last_name: "Renamed",
      school_location: "Shelbyville High, IL",
      amazon_wishlist: "amazon.com/hz/wishlist/ls/CONTRACT2",
    },
  }),
  "POST /admin/wishlist/delete": async (w) => ({
    client: await contentStaff(w, "admin"),
    body: { id: await freshWishlistEntry(w) },
  }),
  "POST /admin/wishlist/move": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { id: await freshWishlistEntry(w), direction: "up" },
  }),
  "GET /admin/social": async (w) => ({ client: await contentStaff(w, "moderator") }),
  "POST /admin/social/create": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      name: "LinkedIn",
      social_url: "https://www.linkedin.com/company/chalkboard",
      social_image: "icon-linkedin",
    },
  }),
  "POST /admin/social/update": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      id: await freshSocialLink(w),
      name: "YouTube",
      social_url: "youtube.com/@chalkboard",
      social_image: "icon-youtube",
    },
  }),
  "POST /admin/social/delete": async (w) => ({
    client: await contentStaff(w, "admin"),
    body: { id: await freshSocialLink(w) },
  }),
  "POST /admin/social/move": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { id: await freshSocialLink(w), direction: "up" },
  }),
  "GET /admin/forums": async (w) => ({ client: await contentStaff(w, "moderator") }),
  "POST /admin/forums/create": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { title: unique("Contract Forum"), slug: "", detail: "Talk.", type: "g" },
  }),
  "POST /admin/forums/update": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      id: await freshForum(w),
      title: unique("Renamed Forum"),
      slug: "",
      detail: "About it.",
      type: "d",
    },
  }),
  "POST /admin/forums/delete": async (w) => ({
    client: await contentStaff(w, "admin"),
    body: { id: await freshForum(w) },
  }),
  "POST /admin/forums/move": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { id: await freshForum(w), direction: "up" },
  }),
  "POST /admin/forum_categories/create": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { forum_id: await freshForum(w), title: "Field Trips" },
  }),
  "POST /admin/forum_categories/update": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { id: await freshForumCategory(w), title: "Renamed Topic" },
  }),
  "POST /admin/forum_categories/delete": async (w) => ({
    client: await contentStaff(w, "admin"),
    body: { id: await freshForumCategory(w), move_to: "" },
  }),
  "POST /admin/forum_categories/move": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { id: await freshForumCategory(w), direction: "down" },
  }),
  "GET /admin/pages": async (w) => ({ client: await contentStaff(w, "moderator") }),
  "POST /admin/pages/create": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      slug: unique("terms"),
      title: "Terms of Use",
      detail: "<h2>Terms</h2><p>Be <strong>kind</strong>.</p>",
    },
  }),
  "POST /admin/pages/update": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      id: await freshPage(w),
      slug: unique("help"),
      title: "Help",
      detail: '<p>Ask us through <a href="/contact">Contact Us</a>.</p>',
    },
  }),
  "POST /admin/pages/delete": async (w) => ({
    client: await contentStaff(w, "admin"),
    body: { id: await freshPage(w) },
  }),
  "GET /admin/messages": async (w) => ({ client: await contentStaff(w, "moderator") }),
  "POST /admin/messages/view": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { id: await freshContactMessage(w) },
  }),
  "POST /admin/messages/resolve": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { id: await freshContactMessage(w) },
  }),
  "POST /admin/messages/reopen": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: { id: await freshContactMessage(w, "resolved") },
  }),
  "POST /admin/messages/reply": async (w) => ({
    client: await contentStaff(w, "moderator"),
    body: {
      id: await freshContactMessage(w),
      body: "Thank you for telling us.\nThe deal is fixed.",
      resolve: true,
    },
  }),

  // Verified educators (core/people/educators).
  "GET /educator_verification": async (w) => ({ client: (await freshMember(w)).client }),
  "POST /educator_verification/school_email": async (w) => ({
    client: (await freshMember(w)).client,
    body: { email: "contract.teacher@lincoln.k12.ca.us" },
  }),
  "POST /educator_verification/review": async (w) => ({
    client: (await freshMember(w)).client,
    body: { note: "I teach year 5 at Lincoln Elementary, Austin." },
  }),
  "POST /educator_verification/withdraw": async (w) => {
    const member = await freshMember(w);
    await insertReviewRequest(w.t.deps.db, member.id);
    return { client: member.client, body: {} };
  },
  "POST /educator_verification/confirm": async (w) => ({
    client: visitor(w),
    body: { code: await insertSchoolEmailRequest(w.t.deps.db, (await freshMember(w)).id) },
  }),
  "GET /my_wishlist": async (w) => ({ client: w.member.client }),
  "POST /wishlist_submit": async (w) => {
    const member = await freshMember(w);
    await markVerifiedEducator(w.t.deps.db, member.id);
    return {
      client: member.client,
      body: {
        first_name: "Ana",
        last_name: "Contract",
        school_location: "Springfield Elementary, IL",
        amazon_wishlist: "https://www.amazon.com/hz/wishlist/ls/CONTRACT2",
      },
    };
  },
  "GET /admin/educators": async (w) => ({ client: await staffClient(w, "moderator") }),
  "POST /admin/educators/approve": async (w) => ({
    client: await staffClient(w, "moderator"),
    body: { id: await insertReviewRequest(w.t.deps.db, (await freshMember(w)).id) },
  }),
  "POST /admin/educators/reject": async (w) => ({
    client: await staffClient(w, "moderator"),
    body: {
      id: await insertReviewRequest(w.t.deps.db, (await freshMember(w)).id),
      reason: "We could not find you on the school's web site.",
    },
  }),
  "POST /admin/school_domains/add": async (w) => ({
    client: await staffClient(w, "moderator"),
    body: { domain: `district-${randomBytes(3).toString("hex")}.org` },
  }),
  "POST /admin/school_domains/remove": async (w) => {
    const domain = `district-${randomBytes(3).toString("hex")}.org`;
    await w.t.deps.db.insertInto("school_domains").values({ domain, created_by: null }).execute();
    return { client: await staffClient(w, "moderator"), body: { domain } };
  },
  "GET /admin/wishlist/pending": async (w) => ({ client: await staffClient(w, "moderator") }),
  "POST /admin/wishlist/approve": async (w) => ({
    client: await staffClient(w, "moderator"),
    body: { id: await insertPendingWishlistEntry(w.t.deps.db, w.member.id) },
  }),
  "POST /admin/wishlist/reject": async (w) => ({
    client: await staffClient(w, "moderator"),
    body: {
      id: await insertPendingWishlistEntry(w.t.deps.db, w.member.id),
      reason: "That link is not an Amazon wishlist.",
    },
  }),
  // Saved deals, followed stores and categories, the personal feed (record 0043).
  "POST /save_deal_toggle": async (w) => ({
    client: (await freshMember(w)).client,
    body: { unique_id: w.ids.deal.unique_id },
  }),
  "POST /saved_deals": async (w) => {
    const member = await freshMember(w);
    await w.t.deps.db
      .insertInto("saved_deals")
      .values({ user_id: member.id, post_id: w.ids.deal.id })
      .execute();
    return { client: member.client, body: { page: 1 } };
  },
  "POST /follow_toggle": async (w) => ({
    client: (await freshMember(w)).client,
    body: { type: "store", id: w.ids.storeId },
  }),
  "POST /my_feed": async (w) => {
    const member = await freshMember(w);
    await w.t.deps.db
      .insertInto("store_follows")
      .values({ user_id: member.id, store_id: w.ids.storeId })
      .execute();
    return { client: member.client, body: { page: 1 } };
  },

  // Notifications and mail preferences (record 0044).
  "POST /notifications": async (w) => ({ client: w.member.client, body: { page: 1 } }),
  "POST /email_preferences": async (w) => ({ client: w.member.client, body: {} }),
  "POST /email_preferences_save": async (w) => ({
    client: w.member.client,
    body: { post_like: true, new_follower: false },
  }),
  // Push notifications (record 0109): a browser's keys made here, an endpoint on a public address
  // given as an IP (nothing to resolve, nothing sent).
  "POST /push_key": async (w) => ({ client: w.member.client, body: {} }),
  "POST /push_subscribe": async (w) => ({
    client: (await freshMember(w)).client,
    body: browserSubscription(`https://93.184.215.14/push/${randomUUID()}`),
  }),
  "POST /push_unsubscribe": async (w) => ({
    client: (await freshMember(w)).client,
    body: { endpoint: `https://93.184.215.14/push/${randomUUID()}` },
  }),
};

/** What PushSubscription.toJSON() gives: a P-256 public key and a 16-byte auth secret. */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    endpoint,
    keys: {
      p256dh: ecdh.getPublicKey().toString("base64url"),
      auth: randomBytes(16).toString("base64url"),
    },
  };
}

function moderator(w: ApiWorld) {
  return signedInStaff(w.t.app, w.t.deps.db, "moderator");
}

async function consoleComment(w: ApiWorld) {
  return insertComment(w.t.deps.db, { postId: w.ids.deal.id, userId: w.member.id });
}

// The console's content: staff and fresh rows for its calls ------------------------------------

/** A moderator or an admin, signed in. */
async function contentStaff(w: ApiWorld, role: "moderator" | "admin") {
  const db = w.t.deps.db;
  const id = await createTestUser(db, { name: `Contract ${role}` });
  await db.updateTable("users").set({ role }).where("id", "=", id).execute();
  const client = new TestClient(w.t.app);
  await client.signInAs(db, id);
  return client;
}

/** A store or category of its own (no deals); a store may be featured too. */
async function freshCatalogRow(
  w: ApiWorld,
  table: "stores" | "categories",
  options: { featured?: boolean } = {},
) {
  const db = w.t.deps.db;
  const slug = unique(table === "stores" ? "contract-store" : "contract-category");
  const row = await db
    .insertInto(table)
    .values({ title: slug, slug })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (options.featured) {
    await db.insertInto("featured_stores").values({ store_id: row.id, position: 99 }).execute();
  }
  return row.id;
}

async function freshWishlistEntry(w: ApiWorld) {
  const row = await w.t.deps.db
    .insertInto("teachers_wishlist")
    .values({
      first_name: "Fresh",
      last_name: "Entry",
      school_location: "Somewhere, CA",
      amazon_wishlist: "https://www.amazon.com/hz/wishlist/ls/FRESH",
      position: 99,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function freshSocialLink(w: ApiWorld) {
  const row = await w.t.deps.db
    .insertInto("social_links")
    .values({
      name: "Fresh",
      social_url: "https://fresh.example.com/",
      social_image: "icon-link",
      position: 99,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function freshForum(w: ApiWorld) {
  const slug = unique("contract-forum");
  const row = await w.t.deps.db
    .insertInto("forums")
    .values({ title: slug, slug, type: "d", position: 99 })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function freshForumCategory(w: ApiWorld) {
  const forumId = await freshForum(w);
  const row = await w.t.deps.db
    .insertInto("forum_categories")
    .values({ forum_id: forumId, kind: "deal", title: "Fresh Topic", position: 1 })
    .returning("id")
    .executeTakeFirstOrThrow();
  await w.t.deps.db
    .insertInto("forum_categories")
    .values({ forum_id: forumId, kind: "deal", title: "Another Topic", position: 2 })
    .execute();
  return row.id;
}

async function freshPage(w: ApiWorld) {
  const row = await w.t.deps.db
    .insertInto("cms_pages")
    .values({ slug: unique("fresh-page"), title: "Fresh Page", detail: "<p>Fresh.</p>" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function freshContactMessage(w: ApiWorld, status: "open" | "resolved" = "open") {
  const row = await w.t.deps.db
    .insertInto("contact_messages")
    .values({
      name: "Pat Sender",
      category: "deal-issue",
      subject: "Expired deal",
      email: `${unique("sender")}@example.com`,
      mobile: "5551234567",
      message: "This deal has expired.",
      status,
      resolved_at: status === "resolved" ? new Date() : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Sends a request: JSON, or multipart/form-data (primitive fields only, as a form sends them). */
export async function send(
  method: string,
  url: string,
  request: ApiRequest,
  body: unknown = request.body,
): Promise<LightMyRequestResponse> {
  if (method === "GET") {
    const query = request.query ? `?${new URLSearchParams(request.query)}` : "";
    return request.client.get(`${url}${query}`);
  }
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

/** A new alert of the member signed in on `client`: its id. */
async function savedAlertId(client: TestClient): Promise<number> {
  const saved = await client.post("/api/alert_save", { keywords: "markers", delivery: "site" });
  if (saved.statusCode !== 200) throw new Error(`alert_save failed: ${saved.body}`);
  return (saved.json() as { alert: { id: number } }).alert.id;
}
