import { describe, expect, it } from "vitest";
import { countsAsView } from "./policy.ts";

describe("countsAsView: which requests count as a view of a post", () => {
  it.each([
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  ])("a browser's request counts: %s", (userAgent) => {
    expect(countsAsView(userAgent)).toBe(true);
  });

  it.each([
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "curl/8.5.0",
    "python-requests/2.32.3",
  ])("a crawler's or script's request does not: %s", (userAgent) => {
    expect(countsAsView(userAgent)).toBe(false);
  });

  it("a request without a user agent does not", () => {
    expect(countsAsView(undefined)).toBe(false);
    expect(countsAsView("")).toBe(false);
  });
});
