import { describe, expect, it } from "vitest";
import { dateTimeFormat, formatCurrency } from "./intl-formats.ts";

describe("kept Intl formatters", () => {
  const when = new Date("2026-03-04T14:05:00Z");

  it("give one formatter per locale and options, formatting as toLocaleString does", () => {
    const options = { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" } as const;
    const format = dateTimeFormat("en-US", options);
    expect(dateTimeFormat("en-US", { ...options })).toBe(format);
    expect(dateTimeFormat("en-GB", options)).not.toBe(format);
    expect(dateTimeFormat("en-US", { ...options, timeZone: "America/New_York" })).not.toBe(format);
    expect(format.format(when)).toBe(when.toLocaleString("en-US", options));
    expect(format.format(when)).toBe("Mar 4, 2026, 2:05 PM");
  });

  it("format prices in their currency, and refuse a code that is no currency", () => {
    expect(formatCurrency(1234.5, "USD")).toBe("$1,234.50");
    expect(formatCurrency(3, "eur")).toBe("€3.00");
    expect(formatCurrency(3, "EUR")).toBe("€3.00");
    expect(() => formatCurrency(3, "dollars")).toThrow(RangeError);
    expect(() => formatCurrency(3, "dollars")).toThrow(RangeError);
  });
});
