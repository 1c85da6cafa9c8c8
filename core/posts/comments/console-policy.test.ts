import { describe, expect, it } from "vitest";
import type { CurrentUser } from "../../auth/sessions.ts";
import { requireCommentAction, roleForCommentAction } from "./console-policy.ts";

const person = (role: CurrentUser["role"]): CurrentUser => ({
  id: 9,
  name: "Kim Staff",
  email: "kim@example.org",
  image_url: null,
  user_type: "Teacher",
  email_verified: true,
  role,
  sessionId: 1,
});

describe("requireCommentAction: who may act on comments in the console", () => {
  it("lets moderators list, hide, restore and remove", () => {
    for (const action of ["list", "hide", "restore", "remove"] as const) {
      expect(roleForCommentAction(action)).toBe("moderator");
      expect(requireCommentAction(person("moderator"), action).id).toBe(9);
    }
  });

  it("keeps deleting for good to administrators", () => {
    expect(requireCommentAction(person("admin"), "delete").role).toBe("admin");
    expect(() => requireCommentAction(person("moderator"), "delete")).toThrow(
      "Only an administrator can do that.",
    );
  });

  it("refuses members and visitors", () => {
    expect(() => requireCommentAction(person("member"), "hide")).toThrow(
      expect.objectContaining({ kind: "forbidden" }),
    );
    expect(() => requireCommentAction(null, "list")).toThrow(
      expect.objectContaining({ kind: "unauthenticated" }),
    );
  });
});
