import { describe, expect, it } from "vitest";
import { returnPathOf, safeReturnPath, withReturnPath } from "./return-path.ts";

describe("safeReturnPath", () => {
  it.each([
    ["/post/abc123/lego-classic-bricks", "/post/abc123/lego-classic-bricks"],
    ["/profile/42", "/profile/42"],
    ["/store/amazon?page=2&sort=new#deals", "/store/amazon?page=2&sort=new#deals"],
    ["/search?query=50%25 off", "/search?query=50%25%20off"],
    ["/search?query=a%2F%2Fb", "/search?query=a%2F%2Fb"],
    ["/category/../store/target", "/store/target"],
    ["/", "/"],
  ])("keeps the local path %j as %j", (raw, expected) => {
    expect(safeReturnPath(raw)).toBe(expected);
  });

  // Each of these, followed after sign-in, would leave the site (or run script) somewhere.
  it.each([
    "//evil.com",
    "///evil.com",
    "////evil.com/path",
    "/\\evil.com",
    "\\\\evil.com",
    "\\/evil.com",
    "/\t/evil.com",
    "/\n/evil.com",
    "/ /evil.com",
    " //evil.com",
    "/.//evil.com",
    "/..//evil.com",
    "/./\\evil.com",
    "https://evil.com",
    "HTTPS://evil.com/post/x",
    "http:evil.com",
    "http:/evil.com",
    "https:\\\\evil.com",
    "ftp://evil.com",
    "javascript:alert(1)",
    "JavaScript:alert(document.cookie)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "evil.com",
    "evil.com/post/x",
    "@evil.com",
    "post/abc/slug",
    // Percent-encoded, once and twice: a server or script that decodes before redirecting.
    "/%2Fevil.com",
    "/%2f%2fevil.com",
    "%2F%2Fevil.com",
    "/%5Cevil.com",
    "/%5cevil.com",
    "%5C%5Cevil.com",
    "/%252Fevil.com",
    "/%25252Fevil.com",
    "/%09/evil.com",
    "/%0a/evil.com",
    "https%3A%2F%2Fevil.com",
    "javascript%3Aalert(1)",
    "%6A%61%76%61%73%63%72%69%70%74:alert(1)",
    // Not worth coming back to: loops and the sign-out page, JSON and OAuth endpoints.
    "/login",
    "/login?next=/post/a/b",
    "/Register",
    "/logout",
    "/api/signin",
    "/auth/google?intent=link",
    "/reset-password/abc",
    "",
    "/" + "a".repeat(2100),
  ])("refuses %j and answers /", (raw) => {
    expect(safeReturnPath(raw)).toBe("/");
  });

  it("refuses what is not a string", () => {
    for (const value of [undefined, null, 42, ["/post/a/b"], { next: "/post/a/b" }]) {
      expect(safeReturnPath(value)).toBe("/");
    }
  });

  it("reads ?next= from a URL, decoded once by the query string", () => {
    expect(returnPathOf("http://site.test/login?next=%2Fpost%2Fa%2Fb%3Fx%3D1")).toBe(
      "/post/a/b?x=1",
    );
    expect(returnPathOf("http://site.test/login?next=%2F%2Fevil.com")).toBe("/");
    expect(returnPathOf("http://site.test/login?next=https%3A%2F%2Fevil.example")).toBe("/");
    expect(returnPathOf("http://site.test/login")).toBe("/");
  });
});

describe("withReturnPath", () => {
  it("adds a checked, encoded next and leaves the page bare for /", () => {
    expect(withReturnPath("/login", "/post/a/b?x=1")).toBe("/login?next=%2Fpost%2Fa%2Fb%3Fx%3D1");
    expect(withReturnPath("/register", "/")).toBe("/register");
    expect(withReturnPath("/login", "//evil.com")).toBe("/login");
  });
});
