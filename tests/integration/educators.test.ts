import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { domainOf, matchSchoolDomain } from "../../core/people/educators/domains.ts";
import { EDUCATOR_MESSAGES } from "../../core/people/educators/schema.ts";
import { sendMailJob } from "../../core/mail/queue.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { auditOf, insertComment, insertPost, signedInStaff } from "../helpers/console.ts";
import { insertPendingWishlistEntry, markVerifiedEducator } from "../helpers/educators.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { TestClient } from "../helpers/session.ts";
import { startSmtpCapture, type SmtpCapture, smtpMailer } from "../helpers/smtp.ts";
import { createTestUser } from "../helpers/users.ts";

/** Verified educators (record 0041): domain rules, links, reviews, badges, teachers' wishlists. */

const HOUR = 60 * 60 * 1000;
let smtp: SmtpCapture;
let t: TestApp;
/** The app's clock: pinned, and moved by the tests that need time to pass. */
let clock = new Date();

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({
    jobs: true,
    now: () => clock,
    mailer: smtpMailer(smtp),
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(() => {
  clock = new Date();
});

async function member(options: { confirmed?: boolean } = {}) {
  const id = await createTestUser(t.deps.db, options);
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, id);
  return { id, client };
}

async function isVerified(userId: number) {
  const row = await t.deps.db
    .selectFrom("users")
    .select("verified_educator")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.verified_educator;
}

function notificationsOf(userId: number) {
  return t.deps.db
    .selectFrom("notifications")
    .select(["kind", "message", "link"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

/** Asks by school address, waits for the mail and answers the link's code. */
async function askBySchoolEmail(client: TestClient, email: string) {
  const response = await client.post("/api/educator_verification/school_email", { email });
  expect(response.statusCode, response.body).toBe(200);
  const mail = await smtp.waitForMessage(email, { subject: /Confirm your school address/ });
  const link = mail.links.find((l) => l.includes("/user/verify-educator/confirm/"));
  expect(link).toBeDefined();
  return { mail, code: link!.split("/").pop()! };
}

describe("school and district domains", () => {
  it("accepts .edu, k12.<state>.us and the list's entries with their subdomains", () => {
    for (const domain of [
      "mit.edu",
      "cs.mit.edu",
      "k12.ca.us",
      "lausd.k12.ca.us",
      "a.b.k12.tx.us",
    ]) {
      expect(matchSchoolDomain(domain, []), domain).not.toBeNull();
    }
    expect(matchSchoolDomain("schools.nyc.gov", ["schools.nyc.gov"])).toEqual({
      rule: "list",
      entry: "schools.nyc.gov",
    });
    expect(matchSchoolDomain("ps1.schools.nyc.gov", ["schools.nyc.gov"])).not.toBeNull();
  });

  it("refuses lookalikes and everything else", () => {
    for (const domain of [
      "edu.evil.com",
      "x.edu.evil.com",
      "evil.com",
      "k12.ca.us.evil.com",
      "evil-k12.ca.us",
      "k12.cal.us",
      "k12.ca.uk",
      "myk12.ca.us",
      "school.edu.au",
      "edu",
      "gmail.com",
    ]) {
      expect(matchSchoolDomain(domain, []), domain).toBeNull();
    }
    // A list entry covers its subdomains, not names that merely end the same way.
    expect(matchSchoolDomain("notschools.nyc.gov", ["schools.nyc.gov"])).toBeNull();
    expect(matchSchoolDomain("schools.nyc.gov.evil.com", ["schools.nyc.gov"])).toBeNull();
  });

  it("reads the domain of an address, lower-cased, and nothing from a malformed one", () => {
    expect(domainOf("Ms.Lee@Lincoln.K12.CA.US")).toBe("lincoln.k12.ca.us");
    expect(domainOf("no-at-sign")).toBeNull();
    expect(domainOf("a@b")).toBeNull();
    expect(domainOf("a@-bad-.edu")).toBeNull();
  });
});

describe("asking by school address", () => {
  it("mails a single-use link through the queue; opening it verifies the member once", async () => {
    const { id, client } = await member();
    const email = `ms.lee-${id}@lincoln.k12.ca.us`;
    const { mail, code } = await askBySchoolEmail(client, email);
    expect(mail.text).toContain("expires in 24 hours");
    await waitForJobs(t.jobs, { kind: sendMailJob });
    // Only the code's hash is stored.
    const stored = await t.deps.db
      .selectFrom("educator_requests")
      .select(["token_hash", "status", "school_email"])
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(code);
    expect(stored).toMatchObject({ status: "pending", school_email: email });

    const status = (await client.get("/api/educator_verification")).json();
    expect(status.request).toMatchObject({ method: "school_email", status: "pending" });

    // The link needs no session: the code is the proof.
    const visitor = new TestClient(t.app);
    const confirmed = await visitor.post("/api/educator_verification/confirm", { code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await isVerified(id)).toBe(true);
    expect((await notificationsOf(id)).map((n) => n.kind)).toContain("educator_verified");

    const again = await visitor.post("/api/educator_verification/confirm", { code });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(EDUCATOR_MESSAGES.linkUsed);

    // A verified member cannot ask again.
    const twice = await client.post("/api/educator_verification/review", {
      note: "I would like to be verified once more, please.",
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(EDUCATOR_MESSAGES.alreadyVerified);
  });

  it("refuses a link opened after it expired, and lets the member ask again", async () => {
    const { id, client } = await member();
    const { code } = await askBySchoolEmail(client, `late-${id}@school.edu`);
    clock = new Date(clock.getTime() + 24 * HOUR + 1000);
    const late = await client.post("/api/educator_verification/confirm", { code });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(EDUCATOR_MESSAGES.linkExpired);
    expect(await isVerified(id)).toBe(false);
    // Still expired when opened again, whatever the clock.
    expect((await client.post("/api/educator_verification/confirm", { code })).json().message).toBe(
      EDUCATOR_MESSAGES.linkExpired,
    );
    expect((await client.get("/api/educator_verification")).json().request.status).toBe("expired");
    const again = await client.post("/api/educator_verification/school_email", {
      email: `late-${id}@school.edu`,
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it("works until the last second of its 24 hours", async () => {
    const { id, client } = await member();
    const { code } = await askBySchoolEmail(client, `ontime-${id}@school.edu`);
    clock = new Date(clock.getTime() + 24 * HOUR - 1000);
    expect((await client.post("/api/educator_verification/confirm", { code })).statusCode).toBe(
      200,
    );
    expect(await isVerified(id)).toBe(true);
  });

  it("refuses other domains with a message listing what is accepted, and sends nothing", async () => {
    const { id, client } = await member();
    for (const email of [
      `a${id}@gmail.com`,
      `a${id}@edu.evil.com`,
      `a${id}@x.edu.evil.com`,
      `a${id}@k12.ca.us.evil.com`,
    ]) {
      const response = await client.post("/api/educator_verification/school_email", { email });
      expect(response.statusCode, email).toBe(422);
      expect(response.json().errors.email).toContain("Accepted: .edu, k12.<state>.us");
    }
    const rows = await t.deps.db
      .selectFrom("educator_requests")
      .select("id")
      .where("user_id", "=", id)
      .execute();
    expect(rows).toEqual([]);
    expect(smtp.messages.some((m) => m.to.some((to) => to.startsWith(`a${id}@`)))).toBe(false);
  });

  it("refuses malformed input, bad codes, visitors and unconfirmed accounts", async () => {
    const { client } = await member();
    for (const body of [{}, { email: "" }, { email: "not an address" }, { email: 42 }]) {
      expect((await client.post("/api/educator_verification/school_email", body)).statusCode).toBe(
        422,
      );
    }
    const visitor = new TestClient(t.app);
    expect(
      (
        await visitor.post("/api/educator_verification/school_email", {
          email: "x@school.edu",
        })
      ).statusCode,
    ).toBe(401);
    const unconfirmed = await member({ confirmed: false });
    expect(
      (
        await unconfirmed.client.post("/api/educator_verification/school_email", {
          email: "x@school.edu",
        })
      ).statusCode,
    ).toBe(403);
    const wrong = await visitor.post("/api/educator_verification/confirm", { code: "nope" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(EDUCATOR_MESSAGES.linkInvalid);
    expect((await visitor.post("/api/educator_verification/confirm", {})).statusCode).toBe(422);
  });

  it("accepts the console's listed domains and their subdomains", async () => {
    const mod = await signedInStaff(t.app, t.deps.db, "moderator");
    const added = await mod.client.post("/api/admin/school_domains/add", {
      domain: "  @Schools.NYC.gov ",
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().domains).toContain("schools.nyc.gov");
    expect((await auditOf(t.deps.db, "school_domain", "schools.nyc.gov")).length).toBe(1);
    const { id, client } = await member();
    await askBySchoolEmail(client, `teacher-${id}@ps1.schools.nyc.gov`);
    const status = (await client.get("/api/educator_verification")).json();
    expect(status.accepted_domains.listed).toContain("schools.nyc.gov");

    const removed = await mod.client.post("/api/admin/school_domains/remove", {
      domain: "schools.nyc.gov",
    });
    expect(removed.statusCode).toBe(200);
    const other = await member();
    const refused = await other.client.post("/api/educator_verification/school_email", {
      email: `t-${other.id}@ps1.schools.nyc.gov`,
    });
    expect(refused.statusCode).toBe(422);
  });

  it("keeps free mail, what is accepted already and malformed names out of the list", async () => {
    const mod = await signedInStaff(t.app, t.deps.db, "moderator");
    for (const domain of [
      "gmail.com",
      "mail.gmail.com",
      "mit.edu",
      "k12.ca.us",
      "com",
      "a b.org",
      "",
    ]) {
      const response = await mod.client.post("/api/admin/school_domains/add", { domain });
      expect(response.statusCode, domain).toBe(422);
    }
    await mod.client.post("/api/admin/school_domains/add", { domain: "district9.org" });
    expect(
      (await mod.client.post("/api/admin/school_domains/add", { domain: "district9.org" }))
        .statusCode,
    ).toBe(409);
    expect(
      (await mod.client.post("/api/admin/school_domains/remove", { domain: "never-listed.org" }))
        .statusCode,
    ).toBe(404);
  });
});

describe("one open request, and a few a day", () => {
  it("allows one open request per member; withdrawing closes it", async () => {
    const { client } = await member();
    const note = "I teach science at Lincoln Middle School, Austin.";
    expect((await client.post("/api/educator_verification/review", { note })).statusCode).toBe(200);
    const second = await client.post("/api/educator_verification/school_email", {
      email: "someone@school.edu",
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(EDUCATOR_MESSAGES.openRequest);
    expect((await client.post("/api/educator_verification/withdraw", {})).statusCode).toBe(200);
    expect((await client.post("/api/educator_verification/withdraw", {})).statusCode).toBe(404);
    expect((await client.post("/api/educator_verification/review", { note })).statusCode).toBe(200);
  });

  it("allows three requests a day per member, then again a day later", async () => {
    const { client } = await member();
    const note = "I teach art at Lincoln Elementary, Austin, TX.";
    for (let i = 0; i < 3; i++) {
      expect((await client.post("/api/educator_verification/review", { note })).statusCode).toBe(
        200,
      );
      await client.post("/api/educator_verification/withdraw", {});
    }
    const fourth = await client.post("/api/educator_verification/review", { note });
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json().message).toBe(EDUCATOR_MESSAGES.tooMany);
    clock = new Date(clock.getTime() + 24 * HOUR + 1000);
    expect((await client.post("/api/educator_verification/review", { note })).statusCode).toBe(200);
  });

  it("bounds the note's length", async () => {
    const { client } = await member();
    for (const note of ["", "too short", "x".repeat(1001), 7]) {
      const response = await client.post("/api/educator_verification/review", { note });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toHaveProperty("note");
    }
  });
});

describe("moderators' review", () => {
  const note = "I teach reading at Lincoln Elementary; my page is on the school site.";

  it("approves: the member is verified and told, and the audit log keeps it", async () => {
    const mod = await signedInStaff(t.app, t.deps.db, "moderator");
    const { id, client } = await member();
    await client.post("/api/educator_verification/review", { note });
    const queue = (await mod.client.get("/api/admin/educators")).json();
    const request = queue.requests.find((r: { user_id: number }) => r.user_id === id);
    expect(request).toMatchObject({ note });
    const approved = await mod.client.post("/api/admin/educators/approve", { id: request.id });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await isVerified(id)).toBe(true);
    expect((await notificationsOf(id)).map((n) => n.kind)).toContain("educator_verified");
    const audit = await auditOf(t.deps.db, "user", id);
    expect(audit.map((a) => a.action)).toContain("educator.approve");
    // Decided once.
    expect(
      (await mod.client.post("/api/admin/educators/approve", { id: request.id })).statusCode,
    ).toBe(409);
    const after = (await mod.client.get("/api/admin/educators")).json();
    expect(after.requests.some((r: { id: number }) => r.id === request.id)).toBe(false);
  });

  it("rejects with a reason the member is told; a reason is required", async () => {
    const mod = await signedInStaff(t.app, t.deps.db, "moderator");
    const { id, client } = await member();
    await client.post("/api/educator_verification/review", { note });
    const { requests } = (await mod.client.get("/api/admin/educators")).json();
    const request = requests.find((r: { user_id: number }) => r.user_id === id);
    expect(
      (await mod.client.post("/api/admin/educators/reject", { id: request.id, reason: " " }))
        .statusCode,
    ).toBe(422);
    const reason = "We could not find you on the school's staff page.";
    const rejected = await mod.client.post("/api/admin/educators/reject", {
      id: request.id,
      reason,
    });
    expect(rejected.statusCode).toBe(200);
    expect(await isVerified(id)).toBe(false);
    const told = await notificationsOf(id);
    expect(told.at(-1)).toMatchObject({ kind: "educator_rejected" });
    expect(told.at(-1)!.message).toContain(reason);
    expect((await auditOf(t.deps.db, "user", id)).at(-1)).toMatchObject({
      action: "educator.reject",
      reason,
    });
    const status = (await client.get("/api/educator_verification")).json();
    expect(status.request).toMatchObject({ status: "rejected", reason });
    // A rejected member may ask again.
    expect((await client.post("/api/educator_verification/review", { note })).statusCode).toBe(200);
  });

  it("answers 404 for unknown requests and school-address requests", async () => {
    const mod = await signedInStaff(t.app, t.deps.db, "moderator");
    expect(
      (await mod.client.post("/api/admin/educators/approve", { id: 99_999_999 })).statusCode,
    ).toBe(404);
    const { id, client } = await member();
    await askBySchoolEmail(client, `own-${id}@school.edu`);
    const row = await t.deps.db
      .selectFrom("educator_requests")
      .select("id")
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow();
    expect((await mod.client.post("/api/admin/educators/approve", { id: row.id })).statusCode).toBe(
      404,
    );
    expect((await mod.client.post("/api/admin/educators/approve", { id: "x" })).statusCode).toBe(
      422,
    );
  });
});

describe("the badge", () => {
  it("is carried by profiles, post details and comments of verified educators only", async () => {
    const teacher = await member();
    await markVerifiedEducator(t.deps.db, teacher.id);
    const plain = await member();
    const post = await insertPost(t.deps.db, { user_id: teacher.id });
    await insertComment(t.deps.db, { postId: post.id, userId: teacher.id });
    await insertComment(t.deps.db, { postId: post.id, userId: plain.id });
    const visitor = new TestClient(t.app);
    const details = (
      await visitor.post("/api/product_details", {
        user_id: "",
        unique_id: post.unique_id,
        slug: post.slug,
        type: "d",
      })
    ).json().response;
    expect(details.product_details.user_verified_educator).toBe(true);
    const byAuthor = Object.fromEntries(
      details.comments.map((c: { user_id: number; user_verified_educator: boolean }) => [
        c.user_id,
        c.user_verified_educator,
      ]),
    );
    expect(byAuthor).toEqual({ [teacher.id]: true, [plain.id]: false });

    const profile = async (userId: number) =>
      (
        await visitor.post("/api/user_profile", {
          loggedin_user_id: "",
          user_id: userId,
          page: 1,
        })
      ).json().response.user_data.user_verified_educator;
    expect(await profile(teacher.id)).toBe(true);
    expect(await profile(plain.id)).toBe(false);

    const otherPost = await insertPost(t.deps.db, { user_id: plain.id });
    const otherDetails = (
      await visitor.post("/api/product_details", {
        user_id: "",
        unique_id: otherPost.unique_id,
        slug: otherPost.slug,
        type: "d",
      })
    ).json().response;
    expect(otherDetails.product_details.user_verified_educator).toBe(false);
  });

  it("comes with a new comment of a verified educator", async () => {
    const teacher = await member();
    await markVerifiedEducator(t.deps.db, teacher.id);
    const post = await insertPost(t.deps.db);
    const response = await teacher.client.post("/api/product_add_comment", {
      user_id: teacher.id,
      post_id: post.id,
      post_type: "d",
      comment_id: "",
      comment_text: "Great find for my classroom.",
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().comment.user_verified_educator).toBe(true);
  });
});

describe("teachers' own wishlist entries", () => {
  const entry = {
    first_name: "Maria",
    last_name: "Gomez",
    school_location: "Lincoln Elementary, Austin, TX",
    amazon_wishlist: "https://www.amazon.com/hz/wishlist/ls/GOMEZ1",
  };

  async function homeText() {
    return (await new TestClient(t.app).post("/api/home", { user_id: "" })).body;
  }

  it("refuses members who are not verified educators, with the way to get verified", async () => {
    const { client } = await member();
    const response = await client.post("/api/wishlist_submit", entry);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(EDUCATOR_MESSAGES.notEducator);
    expect(response.json().message).toContain("/user/verify-educator");
    expect((await client.get("/api/my_wishlist")).json()).toMatchObject({
      verified_educator: false,
      entries: [],
    });
    expect((await new TestClient(t.app).post("/api/wishlist_submit", entry)).statusCode).toBe(401);
  });

  it("waits for approval, is not public until approved, then joins the end of the list", async () => {
    const teacher = await member();
    await markVerifiedEducator(t.deps.db, teacher.id);
    const lastName = `Gomez${teacher.id}`;
    const sent = await teacher.client.post("/api/wishlist_submit", {
      ...entry,
      last_name: lastName,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().item.status).toBe("pending");
    const id = sent.json().item.id;
    expect(await homeText()).not.toContain(lastName);
    // One entry waiting at a time.
    expect((await teacher.client.post("/api/wishlist_submit", entry)).statusCode).toBe(409);

    const mod = await signedInStaff(t.app, t.deps.db, "moderator");
    expect(JSON.stringify((await mod.client.get("/api/admin/wishlist")).json())).not.toContain(
      lastName,
    );
    const pending = (await mod.client.get("/api/admin/wishlist/pending")).json().items;
    expect(pending.find((item: { id: number }) => item.id === id)).toMatchObject({
      user_id: teacher.id,
      status: "pending",
    });
    const approved = await mod.client.post("/api/admin/wishlist/approve", { id });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await homeText()).toContain(lastName);
    const list = (await mod.client.get("/api/admin/wishlist")).json().items;
    expect(list.at(-1)).toMatchObject({ id, position: list.length });
    expect((await notificationsOf(teacher.id)).at(-1)).toMatchObject({ kind: "wishlist_approved" });
    expect((await auditOf(t.deps.db, "wishlist", id)).map((a) => a.action)).toContain(
      "wishlist.approve",
    );
    expect((await mod.client.post("/api/admin/wishlist/approve", { id })).statusCode).toBe(409);
    // The console's ordering still works with entries waiting beside the list.
    await insertPendingWishlistEntry(t.deps.db, teacher.id);
    const moved = await mod.client.post("/api/admin/wishlist/move", { id, direction: "up" });
    expect(moved.statusCode, moved.body).toBe(200);
  });

  it("rejects with a reason the teacher is told; rejected entries never show", async () => {
    const teacher = await member();
    const id = await insertPendingWishlistEntry(t.deps.db, teacher.id);
    const mod = await signedInStaff(t.app, t.deps.db, "moderator");
    const reason = "That link is not an Amazon wishlist.";
    expect((await mod.client.post("/api/admin/wishlist/reject", { id })).statusCode).toBe(422);
    const rejected = await mod.client.post("/api/admin/wishlist/reject", { id, reason });
    expect(rejected.statusCode).toBe(200);
    const row = await t.deps.db
      .selectFrom("teachers_wishlist")
      .select(["status", "review_reason", "last_name"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "rejected", review_reason: reason });
    expect(await homeText()).not.toContain(row.last_name);
    expect((await notificationsOf(teacher.id)).at(-1)!.message).toContain(reason);
    expect((await teacher.client.get("/api/my_wishlist")).json().entries[0]).toMatchObject({
      id,
      status: "rejected",
      review_reason: reason,
    });
  });

  it("checks the fields as the console does", async () => {
    const teacher = await member();
    await markVerifiedEducator(t.deps.db, teacher.id);
    const response = await teacher.client.post("/api/wishlist_submit", {
      ...entry,
      amazon_wishlist: "javascript:alert(1)",
      first_name: "",
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(
      expect.arrayContaining(["first_name", "amazon_wishlist"]),
    );
  });
});
