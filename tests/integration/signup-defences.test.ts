import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNUP_DEFENCES } from "../../core/constants.ts";
import { sendMailJob } from "../../core/mail/queue.ts";
import { SignupResponse } from "../../core/people/accounts/responses.ts";
import { ACCOUNT_MESSAGES as M } from "../../core/people/accounts/schema.ts";
import { NOT_TEXT_MESSAGE } from "../../core/validation.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { FormBrowser } from "../helpers/form-browser.ts";

// Sign-up defences (docs/decisions/0085-sign-up-defences.md): the register form's honeypot and
// signed render time, at both doors (POST /api/signup and the Register page posted without
// JavaScript), and the refusal of disposable addresses. The app's clock is pinned and moved by
// hand: no test waits for time to pass.

const PASSWORD = "Fresh#Chalk88";
const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

let t: TestApp;
let clock = new Date();
const logLines: string[] = [];

beforeAll(async () => {
  t = await createTestApp({
    pages: true,
    seed: "none",
    now: () => clock,
    env: { LOG_LEVEL: "info" },
    logStream: { write: (line) => void logLines.push(line) },
  });
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
function newEmail(label: string, domain = "example.com") {
  counter += 1;
  return `defence-${label}-${Date.now()}-${counter}@${domain}`;
}

/** A stamp the site made `msAgo` before the clock's now. */
async function stampFrom(msAgo: number): Promise<string> {
  const now = clock;
  clock = new Date(now.getTime() - msAgo);
  try {
    return await t.services.accounts.signupFormStamp();
  } finally {
    clock = now;
  }
}

function signup(body: Record<string, unknown>) {
  return t.app.inject({ method: "POST", url: "/api/signup", payload: body });
}

async function usersWith(email: string) {
  return t.deps.db.selectFrom("users").select("id").where("email", "=", email).execute();
}

async function queuedMails(): Promise<number> {
  return (await t.jobs.unfinished(sendMailJob)).length;
}

/** The log lines about scripted sign-ups written since `from`. */
function scriptedLines(from: number): string[] {
  return logLines.slice(from).filter((line) => line.includes("sign-up answered as made"));
}

/**
 * Posts `extra` beside a valid sign-up to the API and checks that it was taken for a script's:
 * the same 201 answer as a real sign-up, no account, no mail, one log line without the address.
 */
async function expectDecoy(label: string, extra: Record<string, unknown>, reason: string) {
  const email = newEmail(label);
  const mailsBefore = await queuedMails();
  const linesBefore = logLines.length;
  const response = await signup({ name: "Bot Person", email, password: PASSWORD, ...extra });
  expect(response.statusCode).toBe(201);
  const body = SignupResponse.parse(response.json());
  expect(body).toMatchObject({
    status: "true",
    message: M.registered,
    response: { name: "Bot Person", email, email_verified: false },
    confirmation_mail_sent: true,
  });
  expect(body.response.user_id).toBeGreaterThan(0);
  expect(await usersWith(email)).toEqual([]);
  expect(await queuedMails()).toBe(mailsBefore);
  const lines = scriptedLines(linesBefore);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(reason);
  expect(lines[0]).not.toContain(email);
  expect(lines[0]).not.toContain(email.split("@")[0]);
}

describe("POST /api/signup: the honeypot and the form's signed render time", () => {
  it("signs up a client that sends neither field, as the spec's do", async () => {
    const email = newEmail("spec-client");
    const mailsBefore = await queuedMails();
    const response = await signup({ name: "Spec Client", email, password: PASSWORD });
    expect(response.statusCode).toBe(201);
    expect(await usersWith(email)).toHaveLength(1);
    expect(await queuedMails()).toBe(mailsBefore + 1);
    // An empty honeypot and an empty stamp are the same as none.
    const other = newEmail("spec-client-empty");
    const empty = await signup({
      name: "Spec Client",
      email: other,
      password: PASSWORD,
      website: "",
      form_stamp: "",
    });
    expect(empty.statusCode).toBe(201);
    expect(await usersWith(other)).toHaveLength(1);
  });

  it("signs up a form sent back at a person's pace: account made, mail queued", async () => {
    const email = newEmail("in-time");
    const mailsBefore = await queuedMails();
    const response = await signup({
      name: "Paced Person",
      email,
      password: PASSWORD,
      website: "",
      form_stamp: await stampFrom(SIGNUP_DEFENCES.minimumFillMs),
    });
    expect(response.statusCode).toBe(201);
    const [user] = await usersWith(email);
    expect(response.json().response.user_id).toBe(user!.id);
    expect(await queuedMails()).toBe(mailsBefore + 1);
    // The same stamp may be sent again (a form corrected after a field message), within its day.
    const again = newEmail("in-time-again");
    const stamp = await stampFrom(DAY - SECOND);
    const second = await signup({
      name: "Paced Person",
      email: again,
      password: PASSWORD,
      form_stamp: stamp,
    });
    expect(second.statusCode).toBe(201);
    expect(await usersWith(again)).toHaveLength(1);
  });

  it("answers a filled honeypot as a success, but makes no account and sends no mail", async () => {
    await expectDecoy("honeypot", { website: "https://spam.example" }, "honeypot filled");
    // Any value at all, of any type, and whatever the stamp says.
    await expectDecoy("honeypot-number", { website: 1 }, "honeypot filled");
    await expectDecoy(
      "honeypot-stamped",
      { website: " ", form_stamp: await stampFrom(10 * SECOND) },
      "honeypot filled",
    );
  });

  it("answers a form sent back too soon as a success, but makes no account and sends no mail", async () => {
    await expectDecoy("too-fast", { form_stamp: await stampFrom(0) }, "form sent too fast");
    await expectDecoy(
      "just-too-fast",
      { form_stamp: await stampFrom(SIGNUP_DEFENCES.minimumFillMs - 1) },
      "form sent too fast",
    );
    // A stamp from the future (another process's clock ahead) is no better.
    await expectDecoy(
      "future",
      { form_stamp: await stampFrom(-60 * SECOND) },
      "form sent too fast",
    );
  });

  it("answers a forged stamp as a success, but makes no account and sends no mail", async () => {
    const real = await stampFrom(10 * SECOND);
    const [, mac] = real.split(".");
    const claimed = String(clock.getTime() - 60 * SECOND);
    await expectDecoy("forged-time", { form_stamp: `${claimed}.${mac}` }, "form stamp forged");
    await expectDecoy("bare-time", { form_stamp: claimed }, "form stamp forged");
    await expectDecoy(
      "wrong-mac",
      { form_stamp: `${claimed}.${"A".repeat(43)}` },
      "form stamp forged",
    );
    // Not text at all: refused as every text field is (record 0021).
    const notText = await signup({
      name: "Bot Person",
      email: newEmail("not-text"),
      password: PASSWORD,
      form_stamp: 12345,
    });
    expect(notText.statusCode).toBe(422);
    expect(notText.json().message).toEqual({ form_stamp: NOT_TEXT_MESSAGE });
  });

  it("answers a script's mistakes as a person's: the checks come before the decoy", async () => {
    const email = newEmail("taken");
    expect((await signup({ name: "First Person", email, password: PASSWORD })).statusCode).toBe(
      201,
    );
    const mailsBefore = await queuedMails();
    for (const extra of [{ website: "x" }, { form_stamp: await stampFrom(0) }]) {
      const taken = await signup({ name: "Bot Person", email, password: PASSWORD, ...extra });
      expect(taken.statusCode).toBe(422);
      expect(taken.json().message).toEqual({ email: M.emailTaken });
      const common = await signup({
        name: "Bot Person",
        email: newEmail("common"),
        password: "Password1!",
        ...extra,
      });
      expect(common.statusCode).toBe(422);
      expect(common.json().message).toEqual({ password: M.passwordCommon });
    }
    expect(await usersWith(email)).toHaveLength(1);
    expect(await queuedMails()).toBe(mailsBefore);
  });

  it("tells a person whose form is over a day old to reload it, and makes nothing", async () => {
    const email = newEmail("expired");
    const mailsBefore = await queuedMails();
    const response = await signup({
      name: "Slow Person",
      email,
      password: PASSWORD,
      form_stamp: await stampFrom(DAY + SECOND),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toEqual({ form_stamp: M.signupFormExpired });
    expect(await usersWith(email)).toEqual([]);
    expect(await queuedMails()).toBe(mailsBefore);
  });
});

describe("POST /api/signup: disposable addresses", () => {
  it("refuses a disposable domain and its subdomains with 422 and message.email; stores nothing", async () => {
    for (const domain of ["mailinator.com", "inbox.mailinator.com", "MAILINATOR.com"]) {
      const email = newEmail("disposable", domain);
      const mailsBefore = await queuedMails();
      const response = await signup({ name: "Temp Person", email, password: PASSWORD });
      expect(response.statusCode, domain).toBe(422);
      expect(response.json().message, domain).toEqual({ email: M.disposableEmail });
      expect(await usersWith(email)).toEqual([]);
      expect(await queuedMails()).toBe(mailsBefore);
    }
    // A listed name inside an unlisted domain is not refused: only the domain and what is under it.
    const lookalike = newEmail("lookalike", "mailinator.com.example.com");
    const kept = await signup({ name: "Real Person", email: lookalike, password: PASSWORD });
    expect(kept.statusCode).toBe(201);
  });
});

/** The Register page's form as served: its stamp, and the honeypot's markup. */
async function openRegister(browser: FormBrowser) {
  const page = await browser.open("/register");
  const stamp = /name="form_stamp" value="([^"]+)"/.exec(page.body)?.[1];
  expect(stamp).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
  return { page, stamp: stamp! };
}

function registerForm(browser: FormBrowser, email: string, extra: Record<string, string>) {
  return browser.postForm("/register", {
    _csrf: browser.xsrf,
    name: "Rita Register",
    email,
    password: PASSWORD,
    confirm_password: PASSWORD,
    website: "",
    ...extra,
  });
}

describe("the Register page's form, posted without JavaScript", () => {
  it("carries a signed render time and a honeypot people never see or reach", async () => {
    const { page } = await openRegister(new FormBrowser(t.app));
    const honeypot = /<div class="form-honeypot" aria-hidden="true">([\s\S]*?)<\/div>/.exec(
      page.body,
    )?.[1];
    expect(honeypot).toBeDefined();
    expect(honeypot).toMatch(/<label for="website">Leave this field empty<\/label>/);
    const input = /<input [^>]*>/.exec(honeypot!)?.[0] ?? "";
    for (const attribute of ['id="website"', 'name="website"', 'type="text"', 'value=""']) {
      expect(input).toContain(attribute);
    }
    // HTML attribute names are case-insensitive: React writes autoComplete as it is spelt.
    expect(input).toContain('tabindex="-1"');
    expect(input.toLowerCase()).toContain('autocomplete="off"');
  });

  it("signs up a form sent at a person's pace", async () => {
    const browser = new FormBrowser(t.app);
    const { stamp } = await openRegister(browser);
    clock = new Date(clock.getTime() + SIGNUP_DEFENCES.minimumFillMs + SECOND);
    const email = newEmail("page-in-time");
    const response = await registerForm(browser, email, { form_stamp: stamp });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(M.registered);
    expect(await usersWith(email)).toHaveLength(1);
  });

  it("answers a filled honeypot, or a form sent too soon, as a success, and makes nothing", async () => {
    for (const [label, extra] of [
      ["page-honeypot", { website: "https://spam.example" }],
      ["page-too-fast", {}],
    ] as const) {
      const browser = new FormBrowser(t.app);
      const { stamp } = await openRegister(browser);
      clock = new Date(clock.getTime() + (label === "page-too-fast" ? SECOND : 10 * SECOND));
      const email = newEmail(label);
      const mailsBefore = await queuedMails();
      const response = await registerForm(browser, email, { form_stamp: stamp, ...extra });
      expect(response.statusCode, label).toBe(200);
      expect(response.body).toContain(M.registered);
      expect(response.body).toMatch(/<meta http-equiv="refresh" content="3;url=\/verify"/);
      expect(await usersWith(email)).toEqual([]);
      expect(await queuedMails()).toBe(mailsBefore);
    }
  });

  it("keeps the first stamp through a field message, and replaces an expired one", async () => {
    const browser = new FormBrowser(t.app);
    const { stamp } = await openRegister(browser);
    clock = new Date(clock.getTime() + 10 * SECOND);
    const mismatch = await registerForm(browser, newEmail("page-mismatch"), {
      form_stamp: stamp,
      confirm_password: "Other#Chalk88",
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.body).toContain(`name="form_stamp" value="${stamp}"`);

    clock = new Date(clock.getTime() + DAY);
    const email = newEmail("page-expired");
    const expired = await registerForm(browser, email, { form_stamp: stamp });
    expect(expired.statusCode).toBe(422);
    expect(expired.body).toContain(M.signupFormExpired);
    expect(expired.body).not.toContain(`value="${stamp}"`);
    expect(await usersWith(email)).toEqual([]);
  });

  it("refuses a disposable address with the same message as the API", async () => {
    const browser = new FormBrowser(t.app);
    const { stamp } = await openRegister(browser);
    clock = new Date(clock.getTime() + 10 * SECOND);
    const email = newEmail("page-disposable", "x.mailinator.com");
    const response = await registerForm(browser, email, { form_stamp: stamp });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain(M.disposableEmail.replace("'", "&#x27;"));
    expect(response.body).toMatch(/id="email"[^>]*aria-invalid="true"/);
    expect(await usersWith(email)).toEqual([]);
  });
});
