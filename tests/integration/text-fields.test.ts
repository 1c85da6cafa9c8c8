import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES as M } from "../../core/people/accounts/schema.ts";
import { NOT_TEXT_MESSAGE } from "../../core/validation.ts";
import { failureBodySchema } from "../../server/api/errors.ts";
import { apiRoutes } from "../../server/api/route.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { textFields } from "../helpers/text-fields.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Types at the door: a list, an object or a number where a call reads text is refused with 422
 * naming the field (core/validation.ts, NOT_TEXT_MESSAGE), never converted with String(), which
 * throws for `{"toString": 1}` and answered 500 with a stack trace in the log. The fuzz of every
 * call (fuzz-api-1.test.ts, fuzz-api-2.test.ts) sends such values to every text field; this file
 * names the calls that broke, their spec shapes and the log.
 */

interface LogLine {
  level: number;
  msg?: string;
  err?: { stack?: string };
}

const STRONG = "Chalk#Board42";
const NOT_TEXT: unknown[] = [{ toString: 1 }, { toString: 1, valueOf: 1 }, [[{ toString: 1 }]], 42];

let t: TestApp;
let member: TestClient;
const lines: LogLine[] = [];

beforeAll(async () => {
  t = await createTestApp({
    seed: "none",
    env: { LOG_LEVEL: "info" },
    logStream: { write: (line) => void lines.push(JSON.parse(line) as LogLine) },
  });
  member = new TestClient(t.app);
  await member.signInAs(t.deps.db, await createTestUser(t.deps.db));
});

afterAll(async () => {
  await t?.close();
});

/** The lines a failure would write: error level and up, or any stack trace. */
const faultLines = () => lines.filter((line) => line.level >= 50 || line.err?.stack);

/** The calls a probe found answering 500, each with a valid body and the field the probe sent. */
const CALLS: { url: string; body: Record<string, unknown>; field: string; signedIn?: boolean }[] = [
  { url: "/signin", body: { email: "a@example.com", password: "x" }, field: "email" },
  {
    url: "/signup",
    body: { name: "Ann Example", email: "a@example.com", password: STRONG },
    field: "email",
  },
  { url: "/verify", body: { confirmation_code: "code" }, field: "confirmation_code" },
  { url: "/resend_confirmation", body: { email: "a@example.com" }, field: "email" },
  { url: "/forgot_password", body: { email: "a@example.com" }, field: "email" },
  {
    url: "/reset_password",
    body: { token: "token", password: STRONG, password_confirmation: STRONG },
    field: "token",
  },
  {
    url: "/social_signin",
    body: { provider: "google", email: "a@example.com", id_token: "token" },
    field: "email",
  },
  {
    url: "/social_signin_deleted",
    body: { provider: "google", email: "a@example.com", id_token: "token" },
    field: "email",
  },
  {
    url: "/change_password",
    body: { old_password: "Old#Pass1", new_password: STRONG, new_password_confirmation: STRONG },
    field: "old_password",
    signedIn: true,
  },
];

function routeOf(url: string) {
  const route = apiRoutes.find((r) => r.method === "POST" && r.url === url);
  if (!route) throw new Error(`no call POST ${url}`);
  return route;
}

function send(call: (typeof CALLS)[number], body: Record<string, unknown>) {
  const client = call.signedIn ? member : new TestClient(t.app);
  return client.post(`/api${call.url}`, body);
}

describe("a text field sent as a list, an object or a number", () => {
  it.each(CALLS)("POST /api$url answers 422 naming $field, in the call's shape", async (call) => {
    const route = routeOf(call.url);
    for (const value of NOT_TEXT) {
      const response = await send(call, { ...call.body, [call.field]: value });
      const what = `${call.url} ${call.field}=${JSON.stringify(value)}`;
      expect(response.statusCode, what).toBe(422);
      const body = response.json();
      expect(body.errors, what).toEqual({ [call.field]: NOT_TEXT_MESSAGE });
      expect(failureBodySchema(route.failure).safeParse(body).success, what).toBe(true);
    }
    expect(faultLines()).toEqual([]);
  });

  it("keeps the spec's shapes: status 'False' on sign-in, message.email on sign-up", async () => {
    const signin = await new TestClient(t.app).post("/api/signin", {
      email: { toString: 1 },
      password: "x",
    });
    expect(signin.json()).toMatchObject({ status: "False", message: NOT_TEXT_MESSAGE });
    const signup = await new TestClient(t.app).post("/api/signup", {
      name: "Ann Example",
      email: { toString: 1 },
      password: STRONG,
    });
    expect(signup.json()).toMatchObject({ status: false, message: { email: NOT_TEXT_MESSAGE } });
  });

  it("is refused in every text field of these calls, as the fuzz finds them", async () => {
    for (const call of CALLS) {
      const fields = textFields(routeOf(call.url));
      // The fuzz reads the text fields from the schemas; a reading that finds none checks nothing.
      expect(fields, call.url).toContain(call.field);
      for (const field of fields) {
        const response = await send(call, { ...call.body, [field]: { toString: 1 } });
        expect(response.statusCode, `${call.url} ${field}`).toBe(422);
        // Free text says NOT_TEXT_MESSAGE; a choice (provider) names its choices.
        expect(response.json().errors[field], `${call.url} ${field}`).toBeTruthy();
      }
    }
    expect(faultLines()).toEqual([]);
  });

  it("leaves null and missing fields as they were: the spec's 'required' messages", async () => {
    const signin = await new TestClient(t.app).post("/api/signin", { email: null });
    expect(signin.statusCode).toBe(422);
    expect(signin.json().errors).toEqual({
      email: M.emailRequired,
      password: M.passwordRequired,
    });
    const signup = await new TestClient(t.app).post("/api/signup", {
      name: null,
      email: "a@example.com",
      password: STRONG,
    });
    expect(signup.json().errors).toEqual({ name: M.nameRequired });
  });

  it("is refused in a multipart call's JSON body too, where it used to read as left empty", async () => {
    const profile = {
      name: "Jordan Rivers",
      mobile: "5551234567",
      website: { toString: 1 },
    };
    const refused = await member.post("/api/profile_update", profile);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ website: NOT_TEXT_MESSAGE });
    // A required field that is not text reads as the spec's banner, as an empty one does.
    const noName = await member.post("/api/profile_update", { ...profile, name: ["Jordan"] });
    expect(noName.json()).toMatchObject({
      message: "All fields are required.",
      errors: { name: NOT_TEXT_MESSAGE },
    });
    // The spec's "Mobile numeric": a number is still read as its digits.
    const numeric = await member.post("/api/profile_update", {
      ...profile,
      website: "",
      mobile: 5551234567,
    });
    expect(numeric.statusCode).toBe(200);
    expect(faultLines()).toEqual([]);
  });

  it("reads as a missing required contact field in the spec's headline", async () => {
    const response = await new TestClient(t.app).post("/api/contact_us", {
      name: { toString: 1 },
      subject: "Hello",
      email: "a@example.com",
      mobile: "5551234567",
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      message: "All fields are required.",
      errors: { name: NOT_TEXT_MESSAGE },
    });
  });
});
