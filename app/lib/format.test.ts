import { describe, expect, it } from "vitest";
import { formatCount, formatDate } from "./format.ts";

describe("formatDate", () => {
  it("writes a UTC date as Intl's en-US short date does, on every day of a year", () => {
    const intl = new Intl.DateTimeFormat("en-US", {
      year: "numeric",
      month: "short",
      day: "numeric",
      timeZone: "UTC",
    });
    for (let day = 0; day < 366; day++) {
      const date = new Date(Date.UTC(2028, 0, 1 + day, 23, 59));
      expect(formatDate(date.toISOString())).toBe(intl.format(date));
    }
    expect(formatDate("2026-03-04T00:00:00Z")).toBe("Mar 4, 2026");
  });

  it("writes nothing for a value that is no date", () => {
    expect(formatDate("soon")).toBe("");
  });
});

describe("formatCount", () => {
  it("separates thousands as Intl's en-US does", () => {
    for (const count of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789, -4321])
      expect(formatCount(count)).toBe(count.toLocaleString("en-US"));
  });
});
