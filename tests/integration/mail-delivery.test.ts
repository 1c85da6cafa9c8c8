import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortestRetryDelaySeconds } from "../../core/jobs/job.ts";
import { findUndeliverable, mailDay } from "../../core/mail/delivery-repository.ts";
import { createMailer } from "../../core/mail/mailer.ts";
import {
  MAIL_RETRY_HOURS,
  classifyDeliveryFailure,
  createMailQueue,
  deliverMail,
  sendMailJob,
} from "../../core/mail/queue.ts";
import type { Db } from "../../db/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { waitForJobState, waitForJobs } from "../helpers/jobs.ts";
import { TestClient } from "../helpers/session.ts";
import { smtpMailer, startSmtpCapture, type SmtpCapture } from "../helpers/smtp.ts";
import { createTestUser } from "../helpers/users.ts";

/*
 * Bounces (docs/decisions/0083-mail-delivery.md): the test SMTP server refuses one mailbox for
 * good (550) and another for now (451). The first gets one attempt and is marked undeliverable;
 * the second is retried until the server takes it. No more mail goes to a marked address, and
 * the member sees why on My Account.
 */

const HOUR = 3600_000;
const STRONG = "Chalk#Board42";
const NO_SUCH_USER = { code: 550, message: "5.1.1 No such user here" };
const TRY_LATER = { code: 451, message: "4.7.1 Greylisted, try again later" };

let smtp: SmtpCapture;
/** Works its mail jobs against `smtp`; its log lines (info and up) are kept in `logLines`. */
let t: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({
    seed: "none",
    jobs: true,
    env: { SMTP_URL: smtp.url, LOG_LEVEL: "info" },
    logStream: { write: (line) => void logLines.push(line) },
  });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Today's counts (UTC), zeros when nothing was counted yet. */
async function todaysCounts(db: Db) {
  const row = await db
    .selectFrom("mail_daily_counts")
    .select(["sent", "failed", "suppressed"])
    .where("day", "=", mailDay(new Date()))
    .executeTakeFirst();
  return row ?? { sent: 0, failed: 0, suppressed: 0 };
}

function unique(name: string) {
  return `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

function signUp(email: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/signup",
    payload: { name: "Bounce Tester", email, password: STRONG },
  });
}

function note(to: string, subject: string) {
  return { to, subject, text: `${subject}.`, html: `<p>${subject}.</p>` };
}

describe("a refused mailbox", () => {
  const hard = unique("gone");
  const soft = unique("greylisted");

  it("550 gets one attempt and is marked undeliverable; 451 is retried, then delivered", async () => {
    smtp.answerRecipient(hard, NO_SUCH_USER);
    smtp.answerRecipient(soft, TRY_LATER);
    const before = Date.now();
    expect((await signUp(hard)).statusCode).toBe(201);
    expect((await signUp(soft)).statusCode).toBe(201);

    // The 451 mail fails twice and waits for its third attempt; the 550 one is over by then.
    await waitForJobState(
      t.jobs,
      (jobs) => jobs.length === 1 && jobs[0]!.state === "retry" && jobs[0]!.attempts >= 2,
      { kind: sendMailJob, what: "the 451 mail to wait for a retry", timeoutMs: 30_000 },
    );
    const mark = await findUndeliverable(t.deps.db, hard);
    expect(mark?.reason).toBe("550 5.1.1 No such user here");
    expect(mark!.failed_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await findUndeliverable(t.deps.db, soft)).toBeUndefined();

    smtp.answerRecipient(soft, null);
    const mail = await smtp.waitForMessage(soft, {
      subject: /Confirm your email/,
      timeoutMs: 30_000,
    });
    expect(mail.subject).toMatch(/Confirm your email/);
    await waitForJobs(t.jobs, { kind: sendMailJob });

    expect(smtp.recipientAttempts(hard)).toBe(1);
    expect(smtp.recipientAttempts(soft)).toBeGreaterThanOrEqual(3);
    expect(smtp.messages.filter((m) => m.to.includes(hard))).toEqual([]);
    expect(await findUndeliverable(t.deps.db, soft)).toBeUndefined();
    expect(await todaysCounts(t.deps.db)).toEqual({ sent: 1, failed: 1, suppressed: 0 });

    // The log says which mail and why, never to whom (docs/decisions/0083-mail-delivery.md).
    const mailLines = logLines.filter((line) => line.includes("Confirm your email"));
    expect(mailLines.some((line) => /not delivered after 1 attempt.*550 5\.1\.1/.test(line))).toBe(
      true,
    );
    expect(mailLines.some((line) => /will be retried: 451 4\.7\.1/.test(line))).toBe(true);
    for (const line of logLines) {
      expect(line).not.toContain(hard);
      expect(line).not.toContain(soft);
    }
  }, 60_000);

  it("a 5xx to the message (DATA) is final too; a 5xx to the sender (MAIL FROM) is not", async () => {
    const spam = unique("filtered");
    smtp.answerRecipient(spam, { code: 554, message: "5.7.1 Message rejected as spam" }, "DATA");
    const counted = await todaysCounts(t.deps.db);
    await t.deps.mail.send(note(spam, "Your weekly digest"));
    await waitForJobs(t.jobs, { kind: sendMailJob });
    expect(smtp.recipientAttempts(spam)).toBe(1);
    expect((await findUndeliverable(t.deps.db, spam))?.reason).toBe(
      "554 5.7.1 Message rejected as spam",
    );
    expect(await todaysCounts(t.deps.db)).toEqual({ ...counted, failed: counted.failed + 1 });

    // The site's own sender refused: not the recipient's doing, so retried like a 4xx.
    expect(
      classifyDeliveryFailure(
        Object.assign(new Error("Mail command failed"), {
          code: "EENVELOPE",
          response: "550 5.7.1 Sender address rejected",
          responseCode: 550,
          command: "MAIL FROM",
        }),
      ),
    ).toEqual({ permanent: false, answer: "550 5.7.1 Sender address rejected" });
  }, 30_000);

  it("gets no more mail, not even account mail: suppressed when queued and when sent", async () => {
    const counted = await todaysCounts(t.deps.db);
    // The site's own queue does not even queue it.
    await t.deps.mail.send(note(hard, "Reset your password"));
    expect(await t.jobs.unfinished(sendMailJob)).toEqual([]);
    // A mail queued before the address was marked is stopped by the mail job.
    await createMailQueue(t.jobs).send(note(hard, "Queued before the mark"));
    await waitForJobs(t.jobs, { kind: sendMailJob });

    expect(smtp.recipientAttempts(hard)).toBe(1);
    expect(await todaysCounts(t.deps.db)).toEqual({
      ...counted,
      suppressed: counted.suppressed + 2,
    });
    // Only the second reached the mail job, which logs what it stops.
    const stopped = logLines.filter((line) =>
      /not sent: its address is marked undeliverable/.test(line),
    );
    expect(stopped.some((line) => line.includes("Queued before the mark"))).toBe(true);
    expect(stopped.some((line) => line.includes("Reset your password"))).toBe(false);
  }, 30_000);

  it("is free again once the member's address changes", async () => {
    const member = await createTestUser(t.deps.db);
    const old = unique("old");
    await t.deps.db.updateTable("users").set({ email: old }).where("id", "=", member).execute();
    smtp.answerRecipient(old, NO_SUCH_USER);
    await t.deps.mail.send(note(old, "First try"));
    await waitForJobs(t.jobs, { kind: sendMailJob });
    expect(await findUndeliverable(t.deps.db, old)).toBeDefined();
    // No `to`: sendToMember mails the member's address as it is now.
    const sent = { subject: "New reply", text: "New reply.", html: "<p>New reply.</p>" };
    expect(await t.deps.mail.sendToMember(sent, { userId: member, kind: "comment_reply" })).toBe(
      false,
    );

    const changed = unique("new");
    await t.deps.db.updateTable("users").set({ email: changed }).where("id", "=", member).execute();
    expect(await t.deps.mail.sendToMember(sent, { userId: member, kind: "comment_reply" })).toBe(
      true,
    );
    const mail = await smtp.waitForMessage(changed, { subject: /New reply/ });
    expect(mail.raw).toMatch(/^List-Unsubscribe:/m);
    await waitForJobs(t.jobs, { kind: sendMailJob });
    // The old address stays marked: it is the address that refuses, whoever had it.
    expect(await findUndeliverable(t.deps.db, old)).toBeDefined();
  }, 30_000);
});

describe("a mailbox refused for now, or a server that cannot be reached", () => {
  const at = new Date("2026-11-29T12:00:00Z");
  const lines: string[] = [];
  const log = {
    info: (line: string) => lines.push(line),
    warn: (line: string) => lines.push(line),
  };

  it("is retried for 24 hours by the queue's settings, and no more", () => {
    // The shortest waits pg-boss may pick: the retries allowed outlast 24 hours (so deliverMail's
    // cutoff, not the queue's limit, ends a mail), one retry fewer would not.
    const waited = (retries: number) =>
      Array.from({ length: retries }, (_, i) =>
        shortestRetryDelaySeconds(sendMailJob, i + 1),
      ).reduce((sum, seconds) => sum + seconds, 0);
    expect(MAIL_RETRY_HOURS).toBe(24);
    expect(waited(sendMailJob.retryLimit)).toBeGreaterThanOrEqual(24 * 3600);
    expect(waited(sendMailJob.retryLimit - 1)).toBeLessThan(24 * 3600);
  });

  it("is retried within 24 hours of queueing, then marked with the last answer", async () => {
    const address = unique("slow");
    smtp.answerRecipient(address, TRY_LATER);
    const deliver = deliverMail({ db: t.deps.db, mailer: smtpMailer(smtp), now: () => at, log });
    const counted = await todaysCountsOn(t.deps.db, at);

    // Queued an hour ago, 5th attempt: the next retry comes well within 24 hours.
    await expect(
      deliver(note(address, "Still trying"), {
        attempt: 5,
        createdOn: new Date(at.getTime() - HOUR),
      }),
    ).rejects.toMatchObject({ responseCode: 451 });
    expect(await findUndeliverable(t.deps.db, address)).toBeUndefined();

    // Queued 23.5 hours ago, 30th attempt: the next retry waits at least an hour, past 24 hours.
    await deliver(note(address, "Giving up"), {
      attempt: 30,
      createdOn: new Date(at.getTime() - 23.5 * HOUR),
    });
    const mark = await findUndeliverable(t.deps.db, address);
    expect(mark?.reason).toBe(
      "Given up after 24 hours of temporary failures; last answer: 451 4.7.1 Greylisted, try again later",
    );
    expect(mark?.failed_at).toEqual(at);
    expect(await todaysCountsOn(t.deps.db, at)).toEqual({ ...counted, failed: counted.failed + 1 });
    expect(smtp.recipientAttempts(address)).toBe(2);
    expect(lines.join("\n")).not.toContain(address);
  });

  it("treats a server that cannot be reached as temporary, and gives up after 24 hours", async () => {
    const gone = await startSmtpCapture();
    await gone.close();
    const mailer = createMailer({
      smtpUrl: gone.url,
      from: "Chalkboard Deals <no-reply@chalkboard.test>",
      outboxDir: "/nonexistent",
      log: () => {},
    });
    const deliver = deliverMail({ db: t.deps.db, mailer, now: () => at, log });
    const address = unique("unreachable");

    await expect(
      deliver(note(address, "No server"), { attempt: 1, createdOn: at }),
    ).rejects.toThrow(/ECONNREFUSED/);
    expect(await findUndeliverable(t.deps.db, address)).toBeUndefined();

    await deliver(note(address, "No server"), {
      attempt: 34,
      createdOn: new Date(at.getTime() - 25 * HOUR),
    });
    expect((await findUndeliverable(t.deps.db, address))?.reason).toMatch(
      /^Given up after 24 hours of temporary failures; last answer: .*ECONNREFUSED/,
    );
  });
});

async function todaysCountsOn(db: Db, at: Date) {
  const row = await db
    .selectFrom("mail_daily_counts")
    .select(["sent", "failed", "suppressed"])
    .where("day", "=", mailDay(at))
    .executeTakeFirst();
  return row ?? { sent: 0, failed: 0, suppressed: 0 };
}

describe("My Account's banner", () => {
  let pages: TestApp;
  beforeAll(async () => {
    pages = await createTestApp({ pages: true });
  });
  afterAll(async () => {
    await pages?.close();
  });

  const BANNER =
    /<p class="alert alert-danger mail-delivery-banner" role="alert">We could not deliver mail to <strong>([^<]+)<\/strong> — check your address\.(?:<!-- -->)?\s*<a href="\/user\/profile-edit"/;

  it("tells the member their address takes no mail, until it changes", async () => {
    const member = await createTestUser(pages.deps.db);
    const client = new TestClient(pages.app);
    await client.signInAs(pages.deps.db, member);
    const { email } = await pages.deps.db
      .selectFrom("users")
      .select("email")
      .where("id", "=", member)
      .executeTakeFirstOrThrow();

    expect((await client.get("/user/profile")).body).not.toMatch(/mail-delivery-banner/);

    await pages.deps.db
      .insertInto("undeliverable_addresses")
      .values({ address: email, reason: "550 5.1.1 No such user here", failed_at: new Date() })
      .execute();
    const page = await client.get("/user/profile");
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(BANNER);
    expect(BANNER.exec(page.body)![1]).toBe(email);

    await pages.deps.db
      .updateTable("users")
      .set({ email: unique("changed") })
      .where("id", "=", member)
      .execute();
    expect((await client.get("/user/profile")).body).not.toMatch(/mail-delivery-banner/);
  });
});
