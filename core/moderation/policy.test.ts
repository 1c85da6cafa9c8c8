import { describe, expect, it } from "vitest";
import type { CurrentUser } from "../auth/sessions.ts";
import { canReport, canSeeUnpublished, moderationState } from "./policy.ts";

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
const moderator: CurrentUser = { ...member, id: 43, role: "moderator" };
const admin: CurrentUser = { ...member, id: 44, role: "admin" };

describe("canSeeUnpublished", () => {
  it("shows an item that is not public to its author, moderators and admins", () => {
    expect(canSeeUnpublished(member, 42)).toBe(true);
    expect(canSeeUnpublished(moderator, 42)).toBe(true);
    expect(canSeeUnpublished(admin, 42)).toBe(true);
    expect(canSeeUnpublished(moderator, null)).toBe(true);
  });

  it("hides it from visitors and other members, and an authorless item from members", () => {
    expect(canSeeUnpublished(null, 42)).toBe(false);
    expect(canSeeUnpublished(member, 7)).toBe(false);
    expect(canSeeUnpublished(member, null)).toBe(false);
  });
});

describe("canReport", () => {
  it("lets signed-in users report other people's things, staff included", () => {
    expect(canReport(member, 7)).toBe(true);
    expect(canReport(moderator, 42)).toBe(true);
    expect(canReport(member, null)).toBe(true);
  });

  it("refuses visitors and one's own things", () => {
    expect(canReport(null, 7)).toBe(false);
    expect(canReport(member, 42)).toBe(false);
  });
});

describe("moderationState", () => {
  it("has no banner for a public item", () => {
    expect(moderationState("active")).toBeNull();
  });

  it("names each state that is not public, with a removal's reason", () => {
    expect(moderationState("pending")).toEqual({
      status: "pending",
      label: "Waiting for review",
      reason: "",
    });
    expect(moderationState("hidden", "Reported by 3 members.")).toEqual({
      status: "hidden",
      label: "Hidden pending review",
      reason: "Reported by 3 members.",
    });
    expect(moderationState("removed", "spam")).toMatchObject({
      label: "Removed by a moderator: spam",
    });
    expect(moderationState("removed")?.label).toBe("Removed by a moderator");
  });
});
