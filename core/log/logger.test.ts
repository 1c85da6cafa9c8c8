import { describe, expect, it } from "vitest";
import { createLogger, logContext, REDACTED, REDACTED_EMAIL, scrubSecrets } from "./logger.ts";

function captured(level = "info") {
  const lines: string[] = [];
  const log = createLogger({ level, stream: { write: (line) => void lines.push(line) } });
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { log, lines, parsed };
}

describe("scrubSecrets", () => {
  it.each([
    ["/reset-password/Abc_12-xyz", `/reset-password/${REDACTED}`],
    ["/confirm/Q1w2E3", `/confirm/${REDACTED}`],
    ["/user/verify-educator/confirm/zz9?x=1", `/user/verify-educator/confirm/${REDACTED}?x=1`],
    ["/auth/google/link/c0de", `/auth/google/link/${REDACTED}`],
    ["/alerts/rss/feedtoken", `/alerts/rss/${REDACTED}`],
    ["/unsubscribe?token=a%2Bb", `/unsubscribe?token=${REDACTED}`],
    ["/confirm-email-change?token=t0k", `/confirm-email-change?token=${REDACTED}`],
    [
      "/auth/google/callback?code=4%2F0A&state=s7&scope=email",
      `/auth/google/callback?code=${REDACTED}&state=${REDACTED}&scope=email`,
    ],
    ["mail to Jo.Doe+deals@Example.co.uk failed", `mail to ${REDACTED_EMAIL} failed`],
    ["/login?email=jo%40example.com", `/login?email=${REDACTED}`],
    ["/x?who=jo%40example.com", `/x?who=${REDACTED_EMAIL}`],
    [
      "cookie: loginTokenChalkboard=s3cr3t; XSRF-TOKEN=x5",
      `cookie: loginTokenChalkboard=${REDACTED}; XSRF-TOKEN=${REDACTED}`,
    ],
    ["Authorization: Bearer abc.def", `Authorization: Bearer ${REDACTED}`],
  ])("%s", (text, scrubbed) => {
    expect(scrubSecrets(text)).toBe(scrubbed);
  });

  it("leaves paths and text without secrets alone", () => {
    const text = "/post/abc/some-deal?page=2 /confirm-email-change /store/amazon 200 in 3 ms";
    expect(scrubSecrets(text)).toBe(text);
  });

  it("keeps a JSON line parsable, and finds an address right after an escape", () => {
    const line = JSON.stringify({ msg: 'line one\nann@example.com said "hi" \\ /confirm/x\\y' });
    const scrubbed = scrubSecrets(line);
    expect(JSON.parse(scrubbed)).toEqual({
      msg: `line one\n${REDACTED_EMAIL} said "hi" \\ /confirm/${REDACTED}\\y`,
    });
  });
});

describe("createLogger", () => {
  it("writes one JSON object a line, at the level asked", () => {
    const { log, lines, parsed } = captured("warn");
    log.info("not written");
    log.warn("written");
    expect(lines).toHaveLength(1);
    expect(parsed()[0]).toMatchObject({ level: 40, msg: "written" });
    expect(typeof parsed()[0]!.time).toBe("number");
  });

  it("redacts secret fields by key, and secrets in messages, errors and URLs by content", () => {
    const { log, lines, parsed } = captured();
    log.info(
      {
        password: "hunter2hunter2",
        body: { new_password: "n3w-pass", token: "tok-123", email: "ann@example.com" },
        req: { url: "/reset-password/abc123", headers: { cookie: "loginTokenChalkboard=s1" } },
      },
      "signed in as bob@example.org",
    );
    log.error({ err: new Error("no mailbox carol@example.net") }, "failed");
    const text = lines.join("");
    for (const secret of [
      "hunter2hunter2",
      "n3w-pass",
      "tok-123",
      "ann@example.com",
      "abc123",
      "s1",
      "bob@example.org",
      "carol@example.net",
    ]) {
      expect(text).not.toContain(secret);
    }
    const [first, second] = parsed();
    expect(first).toMatchObject({
      password: REDACTED,
      body: { new_password: REDACTED, token: REDACTED, email: REDACTED },
      req: { url: `/reset-password/${REDACTED}`, headers: { cookie: REDACTED } },
      msg: `signed in as ${REDACTED_EMAIL}`,
    });
    expect(second).toMatchObject({ err: { message: `no mailbox ${REDACTED_EMAIL}` } });
  });

  it("puts the base fields on every line", () => {
    const lines: string[] = [];
    const log = createLogger({
      level: "info",
      base: { pid: 7, worker: "primary" },
      stream: { write: (line) => void lines.push(line) },
    });
    log.child({ reqId: "r-1" }).info("hello");
    expect(JSON.parse(lines[0]!)).toMatchObject({ pid: 7, worker: "primary", reqId: "r-1" });
  });

  it("names the request a line was written in, once, whichever logger wrote it", () => {
    const { log, lines } = captured();
    logContext.run({ reqId: "req-9" }, () => {
      log.info("from a service");
      log.child({ reqId: "req-9" }).info("from the request's logger");
    });
    log.info("outside any request");
    expect(lines[0]).toContain('"reqId":"req-9"');
    expect(lines[1]!.match(/"reqId"/g)).toHaveLength(1);
    expect(lines[2]).not.toContain("reqId");
  });
});
