import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendMailJob } from "../../core/mail/queue.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { waitForJobState, waitForJobs } from "../helpers/jobs.ts";
import { startSmtpCapture, type SmtpCapture } from "../helpers/smtp.ts";

/*
 * Mail leaves through the job queue: the request that causes a mail answers at once, and the mail
 * job delivers it, trying again while the mail server is away or refuses.
 */

const STRONG = "Chalk#Board42";

let smtp: SmtpCapture;
/** Sends through an SMTP server the tests stop, start and make refuse. */
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({ seed: "none", jobs: true, env: { SMTP_URL: smtp.url } });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Starts the SMTP server again on the same port: the same mail server, as the site sees it. */
async function restartSmtp(options: { refuseFirst?: number } = {}) {
  await smtp.close();
  smtp = await startSmtpCapture({ port: smtp.port, ...options });
}

function signUp(email: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/signup",
    payload: { name: "Queue Tester", email, password: STRONG },
  });
}

describe("mail through the job queue", () => {
  it("loses nothing while the mail server is down: the confirmation arrives once it is back", async () => {
    await smtp.close();
    const email = `outage-${Date.now()}@example.com`;
    const response = await signUp(email);
    expect(response.statusCode).toBe(201);

    // The first attempt found no server; the job waits to be tried again.
    await waitForJobState(
      t.jobs,
      (jobs) => jobs.some((job) => job.state === "retry" && job.attempts >= 1),
      { kind: sendMailJob, what: "a failed first attempt" },
    );
    smtp = await startSmtpCapture({ port: smtp.port });
    const mail = await smtp.waitForMessage(email, {
      subject: /Confirm your email/,
      timeoutMs: 30_000,
    });
    await waitForJobs(t.jobs, { kind: sendMailJob });

    // The mailed link is a working one.
    const link = mail.links.find((l) => l.includes("/confirm/"))!;
    const code = decodeURIComponent(new URL(link).pathname.slice("/confirm/".length));
    const verify = await t.app.inject({
      method: "POST",
      url: "/api/verify",
      payload: { confirmation_code: code },
    });
    expect(verify.statusCode).toBe(200);
  }, 60_000);

  it("tries again when the mail server refuses a message", async () => {
    await restartSmtp({ refuseFirst: 1 });
    const email = `refused-${Date.now()}@example.com`;
    expect((await signUp(email)).statusCode).toBe(201);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/forgot_password",
      payload: { email },
    });
    expect(response.statusCode).toBe(200);

    await smtp.waitForMessage(email, { subject: /Confirm your email/, timeoutMs: 30_000 });
    await smtp.waitForMessage(email, { subject: /Reset your/, timeoutMs: 30_000 });
    await waitForJobs(t.jobs, { kind: sendMailJob });
    expect(smtp.refused).toBe(1);
    expect(smtp.messages).toHaveLength(2);
  }, 60_000);
});

describe("mail without an SMTP server", () => {
  /** Has no SMTP server: its mail goes to DATA_DIR/outbox. */
  let outboxApp: TestApp;
  beforeAll(async () => {
    outboxApp = await createTestApp({ seed: "none", jobs: true });
  });
  afterAll(async () => {
    await outboxApp?.close();
  });

  it("is written to DATA_DIR/outbox", async () => {
    const response = await outboxApp.app.inject({
      method: "POST",
      url: "/api/contact_us",
      payload: {
        name: "Outbox Tester",
        subject: "Outbox please",
        email: "outbox@example.org",
        mobile: "5551234567",
      },
    });
    expect(response.statusCode).toBe(200);
    await waitForJobs(outboxApp.jobs, { kind: sendMailJob });
    const outbox = path.join(outboxApp.dataDir, "outbox");
    const files = fs.readdirSync(outbox).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(path.join(outbox, files[0]!), "utf8")).toContain("Outbox please");
  });
});
