import { describe, expect, it } from "vitest";
import {
  SUSPENDED_FALLBACK_MESSAGE,
  accountSuspendedError,
  decodeSuspensionNotice,
  encodeSuspensionNotice,
  formatSuspensionEnd,
  isSuspended,
  suspensionMessage,
} from "./suspension.ts";

const NOW = new Date("2030-06-15T12:00:00Z");
const open = { suspended_at: NOW, suspended_until: null, suspension_reason: "Spam links" };

describe("isSuspended", () => {
  it("is false without a suspension", () => {
    expect(isSuspended({ ...open, suspended_at: null }, NOW)).toBe(false);
  });

  it("lasts until lifted without an end, and until its end otherwise", () => {
    expect(isSuspended(open, NOW)).toBe(true);
    const until = new Date("2030-07-01T00:00:00Z");
    expect(isSuspended({ ...open, suspended_until: until }, NOW)).toBe(true);
    expect(isSuspended({ ...open, suspended_until: until }, until)).toBe(false);
  });
});

describe("suspensionMessage", () => {
  it("names the end date and the reason", () => {
    expect(suspensionMessage({ ...open, suspended_until: new Date("2030-07-01T00:00:00Z") })).toBe(
      "Your account is suspended until 1 July 2030: Spam links",
    );
    expect(suspensionMessage({ ...open, suspended_until: new Date("2030-07-01T14:30:00Z") })).toBe(
      "Your account is suspended until 1 July 2030, 14:30 UTC: Spam links",
    );
  });

  it("has no date for a suspension until lifted", () => {
    expect(suspensionMessage(open)).toBe("Your account is suspended: Spam links");
  });

  it("is the refusal's message, with the end for the apps", () => {
    const until = new Date("2030-07-01T00:00:00Z");
    const error = accountSuspendedError({ ...open, suspended_until: until });
    expect(error.kind).toBe("forbidden");
    expect(error.details).toEqual({ suspended: true, suspended_until: until.toISOString() });
  });
});

describe("the sign-in notice of a provider sign-in", () => {
  it("carries the message there and back", () => {
    const message = suspensionMessage(open);
    expect(decodeSuspensionNotice(encodeSuspensionNotice(message))).toBe(message);
  });

  it("is nothing when it is missing, malformed or not a suspension's", () => {
    expect(decodeSuspensionNotice(undefined)).toBeNull();
    expect(decodeSuspensionNotice("not base64url!")).toBeNull();
    expect(decodeSuspensionNotice(encodeSuspensionNotice("Call 555-0100 now"))).toBeNull();
    expect(SUSPENDED_FALLBACK_MESSAGE).toMatch(/^Your account is suspended/);
  });

  it("formats the end in UTC", () => {
    expect(formatSuspensionEnd(new Date("2031-01-02T00:00:00Z"))).toBe("2 January 2031");
  });
});
