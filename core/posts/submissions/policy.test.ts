import { describe, expect, it } from "vitest";
import { CONFIRM_EMAIL_FIRST } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { requirePoster } from "./policy.ts";

const poster: CurrentUser = {
  id: 5,
  name: "Sam Okafor",
  email: "sam@example.org",
  image_url: null,
  user_type: "Shopper",
  email_verified: true,
  role: "member",
  sessionId: 1,
};

describe("requirePoster: who may post a deal or a discussion", () => {
  it("allows a confirmed member posting as themself", () => {
    expect(requirePoster(poster, "5")).toBe(poster);
    expect(requirePoster(poster, undefined)).toBe(poster);
  });

  it("refuses a visitor", () => {
    expect(() => requirePoster(null, "5")).toThrow("Please log in first.");
  });

  it("refuses a member posting as someone else", () => {
    expect(() => requirePoster(poster, "6")).toThrow("You can only act as yourself.");
  });

  it("refuses a member who has not confirmed the email address", () => {
    expect(() => requirePoster({ ...poster, email_verified: false }, "5")).toThrow(
      CONFIRM_EMAIL_FIRST,
    );
  });
});
