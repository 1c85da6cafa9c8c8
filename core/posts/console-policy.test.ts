import { describe, expect, it } from "vitest";
import type { CurrentUser } from "../auth/sessions.ts";
import { requirePostAction, roleForPostAction } from "./console-policy.ts";
import { POST_BULK_ACTIONS } from "./console-schema.ts";

const person = (role: CurrentUser["role"]): CurrentUser => ({
  id: 7,
  name: "Robin Staff",
  email: "robin@example.org",
  image_url: null,
  user_type: "Teacher",
  email_verified: true,
  role,
  sessionId: 1,
});

describe("requirePostAction: who may act on posts in the console", () => {
  it("lets moderators and administrators edit and do every action but delete", () => {
    for (const action of [...POST_BULK_ACTIONS.filter((a) => a !== "delete"), "update"] as const) {
      expect(roleForPostAction(action)).toBe("moderator");
      expect(requirePostAction(person("moderator"), action).role).toBe("moderator");
      expect(requirePostAction(person("admin"), action).role).toBe("admin");
    }
  });

  it("keeps deleting for good to administrators", () => {
    expect(roleForPostAction("delete")).toBe("admin");
    expect(requirePostAction(person("admin"), "delete").role).toBe("admin");
    expect(() => requirePostAction(person("moderator"), "delete")).toThrow(
      "Only an administrator can do that.",
    );
  });

  it("refuses members (403) and visitors (401)", () => {
    expect(() => requirePostAction(person("member"), "feature")).toThrow(
      expect.objectContaining({ kind: "forbidden" }),
    );
    expect(() => requirePostAction(null, "feature")).toThrow(
      expect.objectContaining({ kind: "unauthenticated" }),
    );
  });
});
