import { describe, expect, it } from "vitest";
import {
  CONFIRM_EMAIL_FIRST,
  requireActingUser,
  requireConfirmedUser,
  requireUser,
} from "./policy.ts";
import type { CurrentUser } from "./sessions.ts";

const member: CurrentUser = {
  id: 42,
  name: "Dana Reyes",
  email: "dana@example.com",
  image_url: null,
  user_type: "Teacher",
  email_verified: true,
  role: "member",
  sessionId: 7,
};
const unconfirmed: CurrentUser = { ...member, email_verified: false };

const NOT_SIGNED_IN = "Please log in first.";
const SOMEONE_ELSE = "You can only act as yourself.";

describe("requireUser", () => {
  it("lets a signed-in user through", () => {
    expect(requireUser(member)).toBe(member);
  });

  it("refuses a visitor", () => {
    expect(() => requireUser(null)).toThrow(NOT_SIGNED_IN);
  });
});

describe("requireActingUser", () => {
  it.each([
    ["their own id as a number", 42],
    ["their own id as text", "42"],
    ["no id", undefined],
    ["a null id", null],
    ["an empty id", ""],
  ])("lets a user act when the payload names %s", (_, claimed) => {
    expect(requireActingUser(member, claimed)).toBe(member);
  });

  it.each([
    ["another user's id", 43],
    ["another user's id as text", "7"],
    ["an id that is not a number", "42abc"],
  ])("refuses a payload naming %s", (_, claimed) => {
    expect(() => requireActingUser(member, claimed)).toThrow(SOMEONE_ELSE);
  });

  it("refuses a visitor whatever the payload names", () => {
    expect(() => requireActingUser(null, 42)).toThrow(NOT_SIGNED_IN);
    expect(() => requireActingUser(null, undefined)).toThrow(NOT_SIGNED_IN);
  });
});

describe("requireConfirmedUser", () => {
  it("lets a confirmed user acting as themself through", () => {
    expect(requireConfirmedUser(member, 42)).toBe(member);
    expect(requireConfirmedUser(member)).toBe(member);
  });

  it("refuses an unconfirmed account, telling it to confirm first", () => {
    expect(() => requireConfirmedUser(unconfirmed, 42)).toThrow(CONFIRM_EMAIL_FIRST);
  });

  it("refuses a visitor, and a payload naming someone else, before the confirmation", () => {
    expect(() => requireConfirmedUser(null, 42)).toThrow(NOT_SIGNED_IN);
    expect(() => requireConfirmedUser(unconfirmed, 43)).toThrow(SOMEONE_ELSE);
  });
});
