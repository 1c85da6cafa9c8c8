import { describe, expect, it } from "vitest";
import type { CurrentUser } from "../../auth/sessions.ts";
import { isProfileOwner } from "./policy.ts";

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

describe("isProfileOwner", () => {
  it("is true for the profile's own user only", () => {
    expect(isProfileOwner(viewer, 11)).toBe(true);
    expect(isProfileOwner(viewer, 12)).toBe(false);
    expect(isProfileOwner(null, 11)).toBe(false);
  });
});
