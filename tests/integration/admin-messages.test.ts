import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import type { TestClient } from "../helpers/session.ts";
import { startSmtpCapture, type SmtpCapture, smtpMailer } from "../helpers/smtp.ts";

/**
 * The Contact Us messages as the console's queue: the item a message links to, filters,
 * resolve and reopen, and a reply mailed over SMTP and kept with the message. The public
 * contact call answers exactly as before.
 */

let t: TestApp;
let smtp: SmtpCapture;
let moderator: TestClient;
let member: TestClient;
let moderatorId: number;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({
    jobs: true,
    env: { PUBLIC_URL: "https://www.chalkboard.example" },
    mailer: smtpMailer(smtp, "Chalkboard Deals <hello@chalkboard.example>"),
  });
  ({ client: moderator, id: moderatorId } = await signInWithRole(t, "moderator", "Mo Moderator"));
  ({ client: member } = await signInWithRole(t, "member"));
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const MESSAGE = {
  name: "Dana Teacher",
  category: "report-user",
  subject: "A spammer",
  email: "dana@example.org",
  mobile: "555 123 4567",
  website: "",
  message: "This member only posts spam: https://www.chalkboard.example/profile/42 — please look.",
};

async function contact(change: Record<string, string> = {}) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/contact_us",
    payload: { ...MESSAGE, ...change },
  });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({
    status: "true",
    message: "Contact information submitted successfully.",
  });
  const row = await t.deps.db
    .selectFrom("contact_messages")
    .selectAll()
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return row;
}

describe("a contact message names the item it is about", () => {
  it("keeps the path of this site's item the message links to", async () => {
    expect((await contact()).item_link).toBe("/profile/42");
    expect(
      (
        await contact({
          category: "deal-issue",
          message: "The deal at chalkboard.example/post/ab12cd34/crayons-64-pack. has expired",
        })
      ).item_link,
    ).toBe("/post/ab12cd34/crayons-64-pack");
    expect(
      (await contact({ category: "dmca", message: "Copied: /educator/zz99/lesson-plans" }))
        .item_link,
    ).toBe("/educator/zz99/lesson-plans");
  });

  it("keeps nothing for other sites and pages that are not items", async () => {
    const row = await contact({
      category: "inquiry",
      message:
        "See https://elsewhere.example/post/ab/cd and https://www.chalkboard.example/newdeals",
    });
    expect(row.item_link).toBe("");
    expect(row.status).toBe("open");
  });
});

describe("the messages queue", () => {
  it("lists messages newest first, filtered by category and status", async () => {
    const all = (await moderator.get("/api/admin/messages")).json();
    expect(all.messages.length).toBeGreaterThanOrEqual(4);
    const times = all.messages.map((m: { created_at: string }) => m.created_at);
    expect([...times].sort().reverse()).toEqual(times);

    const reports = (await moderator.get("/api/admin/messages?category=report-user")).json();
    expect(reports.messages.length).toBeGreaterThan(0);
    for (const m of reports.messages) expect(m.category).toBe("report-user");
    expect(reports.messages[0]).toMatchObject({ item_link: "/profile/42", replies: 0 });

    const resolved = (await moderator.get("/api/admin/messages?status=resolved")).json();
    for (const m of resolved.messages) expect(m.status).toBe("resolved");
    expect(resolved.messages.map((m: { id: number }) => m.id)).not.toContain(
      reports.messages[0].id,
    );
    const odd = await moderator.get("/api/admin/messages?status=nonsense&category=x&page=-4");
    expect(odd.statusCode).toBe(200);
    expect(odd.json().pagination.current_page).toBe(1);
  });

  it("resolves and reopens a message, each with its audit entry", async () => {
    const row = await contact({ category: "feedback", message: "Love it." });
    const resolved = await moderator.post("/api/admin/messages/resolve", { id: row.id });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().contact_message).toMatchObject({ id: row.id, status: "resolved" });
    expect(resolved.json().contact_message.resolved_at).toBeTruthy();
    const list = (await moderator.get("/api/admin/messages?status=resolved")).json();
    expect(list.messages.map((m: { id: number }) => m.id)).toContain(row.id);

    const reopened = await moderator.post("/api/admin/messages/reopen", { id: row.id });
    expect(reopened.json().contact_message).toMatchObject({ status: "open", resolved_at: null });
    const audit = await t.deps.db
      .selectFrom("audit_log")
      .select(["action", "actor_id"])
      .where("item_type", "=", "contact")
      .where("item_id", "=", String(row.id))
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "contact.resolve", actor_id: moderatorId },
      { action: "contact.reopen", actor_id: moderatorId },
    ]);
  });

  it("mails a reply to the sender, keeps it with the message and resolves it", async () => {
    const row = await contact({
      email: "reply-to-me@example.org",
      subject: "Where is my <coupon>?",
      message: "Line one\nLine two",
    });
    const response = await moderator.post("/api/admin/messages/reply", {
      id: row.id,
      body: "Hello Dana,\nthe coupon is <back> now.",
      resolve: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe("Your reply to reply-to-me@example.org is on its way.");
    const detail = response.json().contact_message;
    expect(detail).toMatchObject({ status: "resolved", replies: 1 });
    expect(detail.history).toEqual([
      expect.objectContaining({
        author_name: "Mo Moderator",
        body: "Hello Dana,\nthe coupon is <back> now.",
      }),
    ]);

    const mail = await smtp.waitForMessage("reply-to-me@example.org");
    expect(mail.subject).toBe("Re: Where is my <coupon>?");
    expect(mail.from).toContain("hello@chalkboard.example");
    expect(mail.text).toContain("the coupon is <back> now.");
    expect(mail.text).toContain("> Line one");
    expect(mail.html).toContain("the coupon is &lt;back&gt; now.");
    expect(mail.html).not.toContain("<back>");

    const audit = await t.deps.db
      .selectFrom("audit_log")
      .select(["action", "after"])
      .where("item_type", "=", "contact")
      .where("item_id", "=", String(row.id))
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe("contact.reply");
    expect(audit.after).toMatchObject({ to: "reply-to-me@example.org", status: "resolved" });
  });

  it("refuses an empty reply, an unknown message and members, sending nothing", async () => {
    const row = await contact({ email: "no-mail@example.org" });
    const empty = await moderator.post("/api/admin/messages/reply", { id: row.id, body: "  " });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.body).toBe("Write the reply.");
    const unknown = await moderator.post("/api/admin/messages/reply", {
      id: 999999,
      body: "Hi",
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      (await member.post("/api/admin/messages/reply", { id: row.id, body: "Hi" })).statusCode,
    ).toBe(403);
    const replies = await t.deps.db
      .selectFrom("contact_replies")
      .select("id")
      .where("message_id", "=", row.id)
      .execute();
    expect(replies).toEqual([]);
    // Every queued mail has run (the owner's copy of the message): none went to the sender.
    await waitForJobs(t.jobs);
    expect(smtp.messages.filter((m) => m.to.includes("no-mail@example.org"))).toEqual([]);
  });
});
