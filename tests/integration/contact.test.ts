import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MailMessage } from "../../core/mail/mailer.ts";
import { ownerInbox } from "../../core/contact/service.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { TestClient } from "../helpers/session.ts";

const VALID = {
  name: "Dana Teacher",
  category: "deal-issue",
  subject: "Expired coupon",
  email: "dana@example.org",
  mobile: "555 123 4567",
  website: "dana.example.org",
  message: "The crayon coupon no longer works.\n\nThanks!",
};

let t: TestApp;
const sent: MailMessage[] = [];

beforeAll(async () => {
  t = await createTestApp({
    jobs: true,
    mailer: { send: async (message) => void sent.push(message) },
    env: { MAIL_FROM: "Chalkboard Deals <owner@chalkboard.example>" },
  });
});

afterAll(async () => {
  await t?.close();
});

function submit(payload: Record<string, unknown>) {
  return t.app.inject({ method: "POST", url: "/api/contact_us", payload });
}

describe("POST /api/contact_us", () => {
  it("stores the message, mails the owner and answers 200 with the spec's message", async () => {
    const response = await submit(VALID);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "true",
      message: "Contact information submitted successfully.",
    });

    const stored = await t.deps.db
      .selectFrom("contact_messages")
      .selectAll()
      .where("email", "=", VALID.email)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      name: VALID.name,
      category: "deal-issue",
      subject: VALID.subject,
      mobile: "5551234567",
      website: "https://dana.example.org/",
      message: VALID.message,
      user_id: null,
    });

    // The mail is sent by a job, after the answer.
    await waitForJobs(t.jobs);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const mail = sent[0]!;
    expect(mail.to).toBe("owner@chalkboard.example");
    expect(mail.replyTo).toBe(VALID.email);
    expect(mail.subject).toContain(VALID.subject);
    expect(mail.text).toContain("The crayon coupon no longer works.");
    expect(mail.html).toContain("dana@example.org");
  });

  it("defaults the category to inquiry and treats website and message as optional", async () => {
    const response = await submit({
      name: "Sam",
      subject: "Hello",
      email: "sam@example.org",
      mobile: "+44 20 7946 0958",
    });
    expect(response.statusCode).toBe(200);
    const stored = await t.deps.db
      .selectFrom("contact_messages")
      .select(["category", "website", "message", "mobile"])
      .where("email", "=", "sam@example.org")
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      category: "inquiry",
      website: "",
      message: "",
      mobile: "+442079460958",
    });
  });

  it("answers 'All fields are required.' when a required field is missing or blank", async () => {
    for (const field of ["name", "subject", "email", "mobile"] as const) {
      for (const value of [undefined, "", "   "]) {
        const response = await submit({ ...VALID, [field]: value });
        expect(response.statusCode).toBe(422);
        const body = response.json();
        expect(body).toMatchObject({ status: false, message: "All fields are required." });
        expect(body.errors[field]).toBeTruthy();
      }
    }
    const empty = await submit({});
    expect(empty.json().message).toBe("All fields are required.");
    expect(Object.keys(empty.json().errors).sort()).toEqual(["email", "mobile", "name", "subject"]);
  });

  it("checks the email, mobile, website and category formats", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ email: "not-an-email" }, "email", "Please enter a valid email address."],
      [{ mobile: "call me" }, "mobile", "Mobile number must be numeric."],
      [{ mobile: "12ab34" }, "mobile", "Mobile number must be numeric."],
      [{ website: "javascript:alert(1)" }, "website", "Please enter a valid website URL."],
      [{ website: "not a url" }, "website", "Please enter a valid website URL."],
      [{ category: "spam" }, "category", "Please choose a category from the list."],
    ];
    for (const [change, field, message] of cases) {
      const response = await submit({ ...VALID, ...change });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        status: false,
        message,
        errors: { [field]: message },
      });
    }
  });

  it("never answers 500 for odd bodies", async () => {
    for (const payload of ['"just a string"', "[]", "null"]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/contact_us",
        headers: { "content-type": "application/json" },
        payload,
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
  });

  it("records the signed-in sender", async () => {
    const user = await t.deps.db
      .selectFrom("users")
      .select("id")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, user.id);
    const response = await client.post("/api/contact_us", {
      ...VALID,
      email: "member@example.org",
    });
    expect(response.statusCode).toBe(200);
    const stored = await t.deps.db
      .selectFrom("contact_messages")
      .select("user_id")
      .where("email", "=", "member@example.org")
      .executeTakeFirstOrThrow();
    expect(stored.user_id).toBe(user.id);
  });

  it("still succeeds when the mail server fails: the message is stored", async () => {
    const failing = await createTestApp({
      seed: "none",
      jobs: true,
      mailer: { send: async () => Promise.reject(new Error("SMTP down")) },
    });
    try {
      const response = await failing.app.inject({
        method: "POST",
        url: "/api/contact_us",
        payload: VALID,
      });
      expect(response.statusCode).toBe(200);
      const rows = await failing.deps.db.selectFrom("contact_messages").select("id").execute();
      expect(rows).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });
});

describe("the owner's inbox", () => {
  it("is the address of MAIL_FROM", () => {
    expect(ownerInbox("Chalkboard Deals <owner@chalkboard.example>")).toBe(
      "owner@chalkboard.example",
    );
    expect(ownerInbox("hello@chalkboard.example")).toBe("hello@chalkboard.example");
  });
});

describe("rate limit", () => {
  it("answers 429 after RATE_LIMITS.contact messages from one address", async () => {
    const limited = await createTestApp({
      seed: "none",
      env: { RATE_LIMIT: "on" },
      mailer: { send: async () => {} },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await limited.app.inject({
          method: "POST",
          url: "/api/contact_us",
          payload: VALID,
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses[5]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
