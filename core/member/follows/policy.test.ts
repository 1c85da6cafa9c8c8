import { describe, expect, it } from "vitest";
import type { CurrentUser } from "../../auth/sessions.ts";
import { assertCanFollow } from "./policy.ts";

const viewer: CurrentUser = {
  id: 11,
  name: "Jennifer Walsh",
  email: "jennifer.walsh@example.com",
  image_url: null,
  user_type: "Teacher",
  email_verified: true,
  role: "member",
  sessionId: 3,
};

describe("assertCanFollow", () => {
  it("allows following someone else", () => {
    expect(() => assertCanFollow(viewer, 12)).not.toThrow();
  });

  it("refuses following oneself", () => {
    expect(() => assertCanFollow(viewer, 11)).toThrow("You cannot follow yourself.");
  });
});
