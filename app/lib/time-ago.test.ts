import { describe, expect, it } from "vitest";
import { timeAgo } from "./time-ago.ts";

const now = new Date("2026-06-15T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe("timeAgo", () => {
  it("says 'Just now' under a minute, and for times slightly in the future", () => {
    expect(timeAgo(ago(0), now)).toBe("Just now");
    expect(timeAgo(ago(59), now)).toBe("Just now");
    expect(timeAgo(ago(-30), now)).toBe("Just now");
  });

  it("counts minutes, hours and days with singular and plural", () => {
    expect(timeAgo(ago(60), now)).toBe("1 minute ago");
    expect(timeAgo(ago(119), now)).toBe("1 minute ago");
    expect(timeAgo(ago(45 * 60), now)).toBe("45 minutes ago");
    expect(timeAgo(ago(3600), now)).toBe("1 hour ago");
    expect(timeAgo(ago(3 * 3600 + 59 * 60), now)).toBe("3 hours ago");
    expect(timeAgo(ago(24 * 3600), now)).toBe("1 day ago");
    expect(timeAgo(ago(29 * 24 * 3600), now)).toBe("29 days ago");
  });

  it("counts months of 30 days and years of 365 days", () => {
    expect(timeAgo(ago(30 * 24 * 3600), now)).toBe("1 month ago");
    expect(timeAgo(ago(364 * 24 * 3600), now)).toBe("12 months ago");
    expect(timeAgo(ago(365 * 24 * 3600), now)).toBe("1 year ago");
    expect(timeAgo(ago(3 * 365 * 24 * 3600), now)).toBe("3 years ago");
  });

  it("accepts ISO strings, as loaders send dates", () => {
    expect(timeAgo("2026-06-15T09:00:00.000Z", now)).toBe("3 hours ago");
    expect(timeAgo("not a date", now)).toBe("");
  });
});
