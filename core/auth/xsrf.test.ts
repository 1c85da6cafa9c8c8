import { describe, expect, it } from "vitest";
import { isXsrfTokenValid, makeXsrfToken, sameToken } from "./xsrf.ts";

const SECRET = "a-test-secret-of-the-site";

describe("signed XSRF tokens", () => {
  it("verify with the secret and binding they were made with", () => {
    const visitor = makeXsrfToken(SECRET, null);
    const bound = makeXsrfToken(SECRET, "session-one");
    expect(visitor).toMatch(/^[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{43}$/);
    expect(isXsrfTokenValid(SECRET, null, visitor)).toBe(true);
    expect(isXsrfTokenValid(SECRET, "session-one", bound)).toBe(true);
    expect(makeXsrfToken(SECRET, null)).not.toBe(visitor);
  });

  it("fail with another session, another secret, or across visitor and session", () => {
    const bound = makeXsrfToken(SECRET, "session-one");
    expect(isXsrfTokenValid(SECRET, "session-two", bound)).toBe(false);
    expect(isXsrfTokenValid("another-secret", "session-one", bound)).toBe(false);
    expect(isXsrfTokenValid(SECRET, null, bound)).toBe(false);
    expect(isXsrfTokenValid(SECRET, "session-one", makeXsrfToken(SECRET, null))).toBe(false);
    // "visitor" as a session token must not collide with the visitor binding.
    expect(isXsrfTokenValid(SECRET, "visitor", makeXsrfToken(SECRET, null))).toBe(false);
  });

  it("fail when changed, malformed or missing", () => {
    const token = makeXsrfToken(SECRET, "s");
    const [random, mac] = token.split(".") as [string, string];
    const flipped = `${random.slice(0, -1)}${random.endsWith("A") ? "B" : "A"}.${mac}`;
    expect(isXsrfTokenValid(SECRET, "s", flipped)).toBe(false);
    expect(isXsrfTokenValid(SECRET, "s", `${random}.${mac.slice(1)}x`)).toBe(false);
    for (const bad of [undefined, "", "not-a-token", `${token}x`, ` ${token}`]) {
      expect(isXsrfTokenValid(SECRET, "s", bad)).toBe(false);
    }
  });

  it("compare echoed tokens exactly", () => {
    expect(sameToken("abc", "abc")).toBe(true);
    expect(sameToken("abc", "abd")).toBe(false);
    expect(sameToken("abc", "abcd")).toBe(false);
  });
});
