import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

let t: TestApp;
/** The demo account: it has deals, coupons, followers and an Active subscription. */
let demoId: number;
let demo: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  const row = await t.deps.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", "demo@example.com")
    .executeTakeFirstOrThrow();
  demoId = row.id;
  demo = new TestClient(t.app);
  await demo.signInAs(t.deps.db, demoId);
});
afterAll(async () => {
  await t?.close();
});

/** What the database says the profile's counts are. */
async function expectedCounts(userId: number) {
  const count = async (query: Promise<{ n: number } | undefined>) => Number((await query)?.n ?? 0);
  const db = t.deps.db;
  const posts = (kind: "deal" | "coupon") =>
    db
      .selectFrom("posts")
      .select(sql<number>`count(*)`.as("n"))
      .where("user_id", "=", userId)
      .where("kind", "=", kind)
      .where("status", "=", "active")
      .executeTakeFirst();
  return {
    deal_count: await count(posts("deal")),
    coupon_count: await count(posts("coupon")),
    followers: await count(
      db
        .selectFrom("follows")
        .select(sql<number>`count(*)`.as("n"))
        .where("followee_id", "=", userId)
        .executeTakeFirst(),
    ),
    followings: await count(
      db
        .selectFrom("follows")
        .select(sql<number>`count(*)`.as("n"))
        .where("follower_id", "=", userId)
        .executeTakeFirst(),
    ),
  };
}

/** Shown to their owner alone (the privacy policy; docs/decisions/0019). */
const PRIVATE_FIELDS = ["user_dob", "user_gender", "user_email", "user_mobile", "user_address"];

describe("POST /api/user_dashboard", () => {
  it("answers the user's own page: profile with private fields, follows, deals and subscriptions", async () => {
    const response = await demo.post("/api/user_dashboard", { user_id: demoId });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe("true");
    const { user_data, followings_data, followers_data, deal_data, user_subscriptions } =
      body.response;

    const user = await t.deps.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", demoId)
      .executeTakeFirstOrThrow();
    expect(user_data).toMatchObject({
      user_id: demoId,
      user_name: user.name,
      user_image: user.image_url,
      user_type: user.user_type,
      join_date: user.created_at.toISOString(),
      is_follow: 0,
      user_biography: user.biography,
      user_website: user.website,
      user_email: user.email,
      user_mobile: user.mobile,
      user_address: user.address,
      ...(await expectedCounts(demoId)),
    });
    expect(user_data.user_dob).toMatch(/^(\d{4}-\d{2}-\d{2})?$/);
    expect(user_data).not.toHaveProperty("password_hash");

    expect(followers_data.length).toBe(Math.min(user_data.followers, 30));
    expect(followings_data.length).toBe(Math.min(user_data.followings, 30));
    for (const entry of [...followers_data, ...followings_data]) {
      expect(Object.keys(entry).sort()).toEqual(["id", "name", "user_id", "user_image"]);
    }

    expect(deal_data.length).toBe(Math.min(user_data.deal_count + user_data.coupon_count, 15));
    for (const deal of deal_data) expect(deal.user_id).toBe(demoId);
    expect(body.response.deal_data_pagination).toEqual({
      total: user_data.deal_count + user_data.coupon_count,
      current_page: 1,
      last_page: Math.max(1, Math.ceil((user_data.deal_count + user_data.coupon_count) / 15)),
    });

    expect(user_subscriptions[0]).toEqual({
      id: expect.any(Number),
      plan_name: expect.any(String),
      plan_description: expect.any(String),
      plan_price: expect.stringMatching(/^\d+\.\d{2}$/),
      plan_currency: "usd",
      plan_interval: expect.any(String),
      sub_start_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      sub_end_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      sub_status: "Active",
    });
  });

  it("pages the user's deals with page", async () => {
    const first = (await demo.post("/api/user_dashboard", { user_id: demoId })).json().response;
    // The demo account has more deals than one page holds.
    expect(first.deal_data_pagination.last_page).toBeGreaterThanOrEqual(2);
    const second = (await demo.post("/api/user_dashboard", { user_id: demoId, page: 2 })).json()
      .response;
    expect(second.deal_data_pagination.current_page).toBe(2);
    const firstIds = new Set(first.deal_data.map((d: { id: number }) => d.id));
    for (const deal of second.deal_data) expect(firstIds.has(deal.id)).toBe(false);
  });

  it("refuses a visitor (401), another user's id (403) and a call without XSRF header (403)", async () => {
    const visitor = await t.app.inject({
      method: "POST",
      url: "/api/user_dashboard",
      payload: { user_id: demoId },
    });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ status: false });
    const other = await demo.post("/api/user_dashboard", { user_id: demoId + 1 });
    expect(other.statusCode).toBe(403);
    const noXsrf = await demo.post("/api/user_dashboard", { user_id: demoId }, { xsrf: false });
    expect(noXsrf.statusCode).toBe(403);
  });
});

describe("POST /api/user", () => {
  it("answers the signed-in user's own profile with private fields", async () => {
    const response = await demo.post("/api/user", { user_id: demoId });
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe("true");
    expect(response.json().data).toMatchObject({
      user_id: demoId,
      user_email: "demo@example.com",
      user_mobile: expect.any(String),
      user_address: expect.any(String),
    });
  });

  it("refuses a visitor (401) and another user's id (403)", async () => {
    const visitor = await t.app.inject({
      method: "POST",
      url: "/api/user",
      payload: { user_id: 1 },
    });
    expect(visitor.statusCode).toBe(401);
    expect((await demo.post("/api/user", { user_id: demoId + 1 })).statusCode).toBe(403);
  });
});

describe("POST /api/user_profile", () => {
  it("shows a visitor the public page without private fields or subscriptions", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/user_profile",
      payload: { loggedin_user_id: "", user_id: demoId },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe("true");
    expect(body.response.user_data).toMatchObject({
      user_id: demoId,
      is_follow: 0,
      ...(await expectedCounts(demoId)),
    });
    for (const field of PRIVATE_FIELDS) expect(body.response.user_data).not.toHaveProperty(field);
    expect(JSON.stringify(body)).not.toContain("demo@example.com");
    expect(body.response).not.toHaveProperty("user_subscriptions");
    expect(body.response.deal_data.length).toBeGreaterThan(0);
  });

  it("shows another member the public page without private fields", async () => {
    const viewer = await createTestUser(t.deps.db);
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, viewer);
    const body = (
      await client.post("/api/user_profile", { loggedin_user_id: viewer, user_id: demoId })
    ).json();
    for (const field of PRIVATE_FIELDS) expect(body.response.user_data).not.toHaveProperty(field);
    expect(body.response).not.toHaveProperty("user_subscriptions");
  });

  it("counts a member's live deals and coupons as they are posted and taken down, from the counts the database keeps", async () => {
    const member = await createTestUser(t.deps.db);
    const counts = async () => {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/user_profile",
        payload: { user_id: member },
      });
      const { user_data, deal_data_pagination } = response.json().response;
      return [user_data.deal_count, user_data.coupon_count, deal_data_pagination.total];
    };
    expect(await counts()).toEqual([0, 0, 0]);
    await sql`
      INSERT INTO posts (unique_id, slug, post_type, kind, title, link, price, user_id)
      SELECT 'mpc' || ${member} || '-' || g, 'member-deal-' || g, 'd',
             CASE WHEN g = 1 THEN 'coupon' ELSE 'deal' END, 'Member deal ' || g,
             'https://example.com/member/' || g, 10, ${member}
      FROM generate_series(1, 4) AS g`.execute(t.deps.db);
    expect(await counts()).toEqual([3, 1, 4]);
    await sql`UPDATE posts SET status = 'removed'
              WHERE user_id = ${member} AND kind = 'deal' AND slug = 'member-deal-2'`.execute(
      t.deps.db,
    );
    expect(await counts()).toEqual([2, 1, 3]);

    // Read from the kept row, not counted: however many posts the member has, one row is read.
    await sql`UPDATE post_scope_counts SET total = 40000 WHERE scope = ${`user:${member}:deal`}`.execute(
      t.deps.db,
    );
    expect(await counts()).toEqual([40000, 1, 40001]);
    await sql`SELECT refresh_post_scope_counts()`.execute(t.deps.db);
    expect(await counts()).toEqual([2, 1, 3]);
  });

  it("answers 404 'No Data Found' for an unknown or deleted user", async () => {
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/user_profile",
      payload: { user_id: 987654 },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: "false", message: "No Data Found" });

    const gone = await createTestUser(t.deps.db);
    await t.deps.db
      .updateTable("users")
      .set({ deleted_at: new Date() })
      .where("id", "=", gone)
      .execute();
    const deleted = await t.app.inject({
      method: "POST",
      url: "/api/user_profile",
      payload: { user_id: gone },
    });
    expect(deleted.statusCode).toBe(404);
  });

  it("refuses a loggedin_user_id without a session (401) or of someone else (403)", async () => {
    const visitor = await t.app.inject({
      method: "POST",
      url: "/api/user_profile",
      payload: { loggedin_user_id: demoId, user_id: demoId },
    });
    expect(visitor.statusCode).toBe(401);
    const other = await demo.post("/api/user_profile", {
      loggedin_user_id: demoId + 1,
      user_id: demoId,
    });
    expect(other.statusCode).toBe(403);
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/user_profile",
      payload: { user_id: "abc" },
    });
    expect(bad.statusCode).toBe(422);
  });
});

/** A multipart body as a browser's FormData would send it. */
async function multipart(
  fields: Record<string, string>,
  file?: { bytes: Buffer; name: string; type: string },
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file)
    form.append("image", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { "content-type": request.headers.get("content-type")! },
  };
}

function png(width = 900, height = 600) {
  return sharp({
    create: { width, height, channels: 3, background: { r: 47, g: 107, b: 79 } },
  })
    .png()
    .toBuffer();
}

describe("privacy: a profile shows others only what the privacy policy allows", () => {
  /** The privacy policy's words for each field a profile carries. */
  const POLICY_TERMS: Record<string, string[]> = {
    name: ["user_name"],
    photo: ["user_image"],
    "user type": ["user_type"],
    "join date": ["join_date"],
    biography: ["user_biography"],
    website: ["user_website"],
    "verified educator badge": ["user_verified_educator"],
    "public activity": [
      "user_id",
      "deal_count",
      "coupon_count",
      "followers",
      "followings",
      "is_follow",
    ],
    "email address": ["user_email"],
    "mobile number": ["user_mobile"],
    "date of birth": ["user_dob"],
    gender: ["user_gender"],
    address: ["user_address"],
  };

  /** "a, b, c and d" → the fields the policy's words name; an unknown word fails the test. */
  function fieldsNamed(list: string): string[] {
    return list
      .split(/, | and /)
      .map((term) => term.trim().replace(/^your /, ""))
      .flatMap((term) => {
        expect(POLICY_TERMS, `the policy names "${term}"`).toHaveProperty([term]);
        return POLICY_TERMS[term]!;
      });
  }

  /** The sentence of the site's privacy policy (its CMS page) that says who sees what. */
  async function policyLists() {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/cms_page",
      payload: { slug: "privacy-policy" },
    });
    const text = (response.json().cms_page[0].detail as string)
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
    const sentence =
      /Your ([^.;]+?) appear on your public profile; your ([^.;]+?) are never shown to other members\./.exec(
        text,
      );
    expect(sentence, "the policy says what a public profile shows").not.toBeNull();
    return { shown: fieldsNamed(sentence![1]!), ownerOnly: fieldsNamed(sentence![2]!) };
  }

  it("the policy text and the presenter agree on who sees each profile field", async () => {
    const { shown, ownerOnly } = await policyLists();
    expect([...ownerOnly].sort()).toEqual([...PRIVATE_FIELDS].sort());

    const visitor = await t.app.inject({
      method: "POST",
      url: "/api/user_profile",
      payload: { user_id: demoId },
    });
    expect(Object.keys(visitor.json().response.user_data).sort()).toEqual([...shown].sort());

    const member = new TestClient(t.app);
    await member.signInAs(t.deps.db, await createTestUser(t.deps.db));
    const seen = await member.post("/api/user_profile", { user_id: demoId });
    expect(Object.keys(seen.json().response.user_data).sort()).toEqual([...shown].sort());

    // The owner sees every field, and every field the presenter has is in one of the two lists.
    const own = await demo.post("/api/user_profile", { user_id: demoId });
    expect(Object.keys(own.json().response.user_data).sort()).toEqual(
      [...shown, ...ownerOnly].sort(),
    );
  });

  it("date of birth, gender, email, mobile and address reach their owner alone, by call and page", async () => {
    const owner = await createTestUser(t.deps.db, { name: "Pat Private" });
    const secrets = {
      dob: "1981-07-23",
      gender: "female" as const,
      mobile: "5550199123",
      address: "42 Wallaby Way, Sydney",
    };
    await t.deps.db.updateTable("users").set(secrets).where("id", "=", owner).execute();
    const { email } = await t.deps.db
      .selectFrom("users")
      .select("email")
      .where("id", "=", owner)
      .executeTakeFirstOrThrow();
    const secretValues = [secrets.dob, secrets.mobile, secrets.address, email];

    const ownerClient = new TestClient(t.app);
    await ownerClient.signInAs(t.deps.db, owner);
    const expected = {
      user_dob: secrets.dob,
      user_gender: secrets.gender,
      user_email: email,
      user_mobile: secrets.mobile,
      user_address: secrets.address,
    };
    expect((await ownerClient.post("/api/user", { user_id: owner })).json().data).toMatchObject(
      expected,
    );
    expect(
      (await ownerClient.post("/api/user_dashboard", { user_id: owner })).json().response.user_data,
    ).toMatchObject(expected);
    expect(
      (await ownerClient.post("/api/user_profile", { user_id: owner })).json().response.user_data,
    ).toMatchObject(expected);

    const other = new TestClient(t.app);
    await other.signInAs(t.deps.db, await createTestUser(t.deps.db));
    const answers = [
      await t.app.inject({ method: "POST", url: "/api/user_profile", payload: { user_id: owner } }),
      await other.post("/api/user_profile", { user_id: owner }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      const userData = answer.json().response.user_data;
      expect(userData.user_name).toBe("Pat Private");
      for (const field of PRIVATE_FIELDS) expect(userData).not.toHaveProperty(field);
      for (const value of secretValues) expect(answer.body).not.toContain(value);
    }
  });
});

describe("POST /api/profile_update", () => {
  let member: number;
  let client: TestClient;
  const avatarsDir = () => path.join(t.mediaDir, "avatars");
  const avatarFiles = () =>
    fs.existsSync(avatarsDir()) ? fs.readdirSync(avatarsDir()).sort() : [];
  const userRow = () =>
    t.deps.db.selectFrom("users").selectAll().where("id", "=", member).executeTakeFirstOrThrow();
  const mediaRows = () =>
    t.deps.db.selectFrom("media").selectAll().where("user_id", "=", member).execute();

  const valid = () => ({
    user_id: String(member),
    name: "Jordan Rivers",
    email: "someone-else@example.com",
    mobile: "5551234567",
    website: "jordanrivers.example.org/classroom",
    dob: "1988-04-12",
    gender: "female",
    brief: "Second-grade teacher.",
    address: "Tulsa, OK",
  });

  function update(body: { payload: Buffer; headers: Record<string, string> }, extra = {}) {
    return client.request({ method: "POST", url: "/api/profile_update", ...body, ...extra });
  }

  beforeAll(async () => {
    member = await createTestUser(t.deps.db, { name: "Jordan" });
    client = new TestClient(t.app);
    await client.signInAs(t.deps.db, member);
  });

  it("updates the profile with an avatar; the email is never changed", async () => {
    const before = await userRow();
    const response = await update(
      await multipart(valid(), { bytes: await png(), name: "me.png", type: "image/png" }),
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: "true", message: "Your profile has been updated" });
    expect(body.data).toMatchObject({
      user_name: "Jordan Rivers",
      user_email: before.email,
      user_mobile: "5551234567",
      user_website: "https://jordanrivers.example.org/classroom",
      user_dob: "1988-04-12",
      user_gender: "female",
      user_biography: "Second-grade teacher.",
      user_address: "Tulsa, OK",
      user_image: expect.stringMatching(/^\/media\/avatars\/[\w-]+\.webp$/),
    });
    const after = await userRow();
    expect(after.email).toBe(before.email);
    expect(after.image_url).toBe(body.data.user_image);

    const file = path.join(t.mediaDir, after.image_url!.slice("/media/".length));
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe("webp");
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(512);
    expect(await mediaRows()).toHaveLength(1);

    const served = await t.app.inject({ method: "GET", url: after.image_url! });
    expect(served.statusCode).toBe(200);
  });

  it("a new avatar replaces the old file; an update without image keeps the avatar", async () => {
    const old = (await userRow()).image_url!;
    const response = await update(
      await multipart(valid(), { bytes: await png(300, 300), name: "new.png", type: "image/png" }),
    );
    expect(response.statusCode).toBe(200);
    const now = (await userRow()).image_url!;
    expect(now).not.toBe(old);
    expect(fs.existsSync(path.join(t.mediaDir, old.slice(7)))).toBe(false);
    expect(avatarFiles()).toEqual([path.basename(now)]);
    expect((await mediaRows()).map((m) => m.path)).toEqual([now.slice(7)]);

    const textOnly = await update(await multipart({ ...valid(), name: "Jordan R." }));
    expect(textOnly.statusCode).toBe(200);
    expect(await userRow()).toMatchObject({ name: "Jordan R.", image_url: now });
  });

  it("accepts a JSON body from API clients too", async () => {
    const response = await client.post("/api/profile_update", { ...valid(), gender: "", dob: "" });
    expect(response.statusCode).toBe(200);
    expect(await userRow()).toMatchObject({ gender: null, dob: null });
  });

  it.each([
    ["name", { name: "" }],
    ["mobile", { mobile: "  " }],
  ])("answers 'All fields are required.' (422) when %s is missing", async (field, change) => {
    const before = await userRow();
    const response = await update(await multipart({ ...valid(), ...change }));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      status: false,
      message: "All fields are required.",
      errors: { [field]: expect.stringMatching(/required/) },
    });
    expect(await userRow()).toEqual(before);
  });

  it.each([
    ["mobile", { mobile: "555-CALL-NOW" }, "Mobile number should be numeric."],
    ["website", { website: "javascript:alert(1)" }, "Please enter a valid website URL."],
    ["website", { website: "not a url" }, "Please enter a valid website URL."],
    ["dob", { dob: "1988-02-30" }, "Please enter a valid date of birth."],
    ["dob", { dob: "2999-01-01" }, "Please enter a valid date of birth."],
    ["gender", { gender: "robot" }, "Please choose male or female."],
    ["name", { name: "J" }, "Name should be more than 2 character!"],
  ])("validates %s: %j", async (field, change, message) => {
    const before = await userRow();
    const response = await update(await multipart({ ...valid(), ...change }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toBe(message);
    expect(response.json().message).toBe(message);
    expect(await userRow()).toEqual(before);
  });

  it("refuses a file that is not an image, whatever its name and type say; nothing is stored", async () => {
    const before = { user: await userRow(), files: avatarFiles(), media: await mediaRows() };
    const response = await update(
      await multipart(
        { ...valid(), name: "Should Not Save" },
        {
          bytes: Buffer.from("<?php system($_GET['c']); ?>".repeat(20)),
          name: "me.png",
          type: "image/png",
        },
      ),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.image).toBe(
      "Please choose an image file (JPEG, PNG, GIF or WebP).",
    );
    expect(await userRow()).toEqual(before.user);
    expect(avatarFiles()).toEqual(before.files);
    expect(await mediaRows()).toEqual(before.media);
  });

  it("refuses an image over 5 MB with a clear message; nothing is stored", async () => {
    const before = { user: await userRow(), files: avatarFiles(), media: await mediaRows() };
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1024, 0);
    (await png(20, 20)).copy(big);
    const response = await update(
      await multipart(
        { ...valid(), name: "Should Not Save" },
        { bytes: big, name: "big.png", type: "image/png" },
      ),
    );
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toMatchObject({
      status: false,
      message: "The image must be 5 MB or smaller.",
    });
    expect(await userRow()).toEqual(before.user);
    expect(avatarFiles()).toEqual(before.files);
    expect(await mediaRows()).toEqual(before.media);
  });

  it("removes the stored image when the database write fails", async () => {
    const before = { files: avatarFiles(), media: await mediaRows() };
    // A name the users table cannot take makes the write fail after the image is stored.
    await sql`ALTER TABLE users ADD CONSTRAINT test_no_fail_name CHECK (name <> 'Fail Write')`.execute(
      t.deps.db,
    );
    try {
      const response = await update(
        await multipart(
          { ...valid(), name: "Fail Write" },
          { bytes: await png(), name: "me.png", type: "image/png" },
        ),
      );
      expect(response.statusCode).toBe(500);
    } finally {
      await sql`ALTER TABLE users DROP CONSTRAINT test_no_fail_name`.execute(t.deps.db);
    }
    expect(avatarFiles()).toEqual(before.files);
    expect(await mediaRows()).toEqual(before.media);
  });

  it("refuses a visitor (401), another user's user_id (403) and a call without XSRF header (403)", async () => {
    const before = await userRow();
    const body = await multipart({ ...valid(), name: "Intruder" });
    const visitor = await t.app.inject({ method: "POST", url: "/api/profile_update", ...body });
    expect(visitor.statusCode).toBe(401);
    const other = await update(await multipart({ ...valid(), user_id: String(demoId) }));
    expect(other.statusCode).toBe(403);
    const noXsrf = await update(body, { xsrf: false });
    expect(noXsrf.statusCode).toBe(403);
    expect(await userRow()).toEqual(before);
    const demoUser = await t.deps.db
      .selectFrom("users")
      .select("name")
      .where("id", "=", demoId)
      .executeTakeFirstOrThrow();
    expect(demoUser.name).not.toBe("Jordan Rivers");
  });
});

describe("the profile pages (server-rendered)", () => {
  let pages: TestApp;
  beforeAll(async () => {
    pages = await createTestApp({ pages: true });
  });
  afterAll(async () => {
    await pages?.close();
  });

  it("My Account and Edit profile send a visitor to /login", async () => {
    for (const url of ["/user/profile", "/user/profile-edit"]) {
      const response = await pages.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(`/login?next=${encodeURIComponent(url)}`);
    }
  });

  it("My Account shows the owner's page with private details, subscription and EDIT PROFILE", async () => {
    const client = new TestClient(pages.app);
    await client.signInAs(pages.deps.db, 1);
    const response = await client.get("/user/profile");
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain("Demo Teacher");
    expect(html).toContain("demo@example.com");
    expect(html).toContain("EDIT PROFILE");
    expect(html).toContain("Subscription");
    expect(html).toContain("To cancel, please");
    expect(html).toMatch(/class="deal-card/);
    expect(html).not.toMatch(/>FOLLOW</);
  });

  it("a public profile shows no private details and a FOLLOW button to a visitor", async () => {
    const response = await pages.app.inject({ method: "GET", url: "/profile/1" });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain("Demo Teacher");
    expect(html).toContain("FOLLOW");
    expect(html).not.toContain("demo@example.com");
    expect(html).not.toContain("EDIT PROFILE");
    expect(html).not.toContain("Subscription</h2>");
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/localhost:3000\/profile\/1"/);
  });

  it("Edit profile shows the form filled in, with the email disabled", async () => {
    const client = new TestClient(pages.app);
    await client.signInAs(pages.deps.db, 1);
    const response = await client.get("/user/profile-edit");
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(
      /<input[^>]*id="email"[^>]*disabled=""[^>]*value="demo@example.com"|<input[^>]*id="email"[^>]*value="demo@example.com"[^>]*disabled=""/,
    );
    expect(response.body).toContain("Want to change your password?");
  });

  it("a public profile page carries no date of birth, gender, email, mobile or address", async () => {
    const owner = await createTestUser(pages.deps.db, { name: "Page Private" });
    const secrets = { dob: "1979-11-05", gender: "male" as const, mobile: "5550177001" };
    await pages.deps.db
      .updateTable("users")
      .set({ ...secrets, address: "7 Hidden Lane" })
      .where("id", "=", owner)
      .execute();
    const { email } = await pages.deps.db
      .selectFrom("users")
      .select("email")
      .where("id", "=", owner)
      .executeTakeFirstOrThrow();
    const other = new TestClient(pages.app);
    await other.signInAs(pages.deps.db, await createTestUser(pages.deps.db));
    const visitor = await pages.app.inject({ method: "GET", url: `/profile/${owner}` });
    const member = await other.get(`/profile/${owner}`);
    for (const response of [visitor, member]) {
      expect(response.statusCode).toBe(200);
      // Neither the page nor the data it hydrates from.
      expect(response.body).toContain("Page Private");
      for (const hidden of [
        secrets.dob,
        secrets.mobile,
        "7 Hidden Lane",
        email,
        ...PRIVATE_FIELDS,
      ]) {
        expect(response.body).not.toContain(hidden);
      }
    }
  });

  it("an unknown, deleted or malformed member is the 404 page", async () => {
    const gone = await createTestUser(pages.deps.db);
    await pages.deps.db
      .updateTable("users")
      .set({ deleted_at: new Date() })
      .where("id", "=", gone)
      .execute();
    for (const url of ["/profile/987654", `/profile/${gone}`, "/profile/abc"]) {
      const response = await pages.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toContain("Page Not Found");
    }
  });
});
