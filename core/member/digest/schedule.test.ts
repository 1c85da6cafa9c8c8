import { describe, expect, it } from "vitest";
import { dueDigest, latestDigestMoment } from "./schedule.ts";

const friday9 = { weekday: 5, hour: 9 };

describe("the weekly digest's schedule", () => {
  it("finds the latest scheduled moment at or before a time", () => {
    // 2026-11-27 is a Friday.
    expect(latestDigestMoment(new Date("2026-11-27T09:00:00Z"), friday9).toISOString()).toBe(
      "2026-11-27T09:00:00.000Z",
    );
    expect(latestDigestMoment(new Date("2026-11-27T08:59:59Z"), friday9).toISOString()).toBe(
      "2026-11-20T09:00:00.000Z",
    );
    expect(latestDigestMoment(new Date("2026-11-30T02:00:00Z"), friday9).toISOString()).toBe(
      "2026-11-27T09:00:00.000Z",
    );
    expect(
      latestDigestMoment(new Date("2026-11-29T23:30:00Z"), { weekday: 0, hour: 23 }).toISOString(),
    ).toBe("2026-11-29T23:00:00.000Z");
  });

  it("is due from the hour for a day, keyed by the date it was due", () => {
    expect(dueDigest(new Date("2026-11-27T08:00:00Z"), friday9)).toBeNull();
    expect(dueDigest(new Date("2026-11-27T09:00:00Z"), friday9)?.week).toBe("2026-11-27");
    expect(dueDigest(new Date("2026-11-28T08:59:00Z"), friday9)?.week).toBe("2026-11-27");
    expect(dueDigest(new Date("2026-11-28T09:00:00Z"), friday9)).toBeNull();
  });
});
