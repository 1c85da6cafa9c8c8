import { describe, expect, it } from "vitest";
import type { CurrentUser } from "../auth/sessions.ts";
import { ConflictError, ValidationError } from "../errors.ts";
import { planDeletion, requireContentRole } from "./content-policy.ts";

const person = (role: CurrentUser["role"]): CurrentUser => ({
  id: 7,
  name: "Staff",
  email: "staff@example.org",
  image_url: null,
  user_type: "Teacher",
  email_verified: true,
  role,
  sessionId: 1,
});

describe("requireContentRole: who runs the site's content", () => {
  it("lets moderators read, create, edit and order, and admins do everything", () => {
    for (const action of ["read", "create", "update", "order"] as const) {
      expect(requireContentRole(person("moderator"), action).role).toBe("moderator");
      expect(requireContentRole(person("admin"), action).role).toBe("admin");
    }
    expect(requireContentRole(person("admin"), "delete").role).toBe("admin");
  });

  it("keeps hard deletes to admins", () => {
    expect(() => requireContentRole(person("moderator"), "delete")).toThrow(
      "Only an administrator can do that.",
    );
  });

  it("refuses members and visitors", () => {
    expect(() => requireContentRole(person("member"), "read")).toThrow(
      "Only moderators and administrators can do that.",
    );
    expect(() => requireContentRole(null, "read")).toThrow("Please log in first.");
  });
});

describe("planDeletion: nothing in use is orphaned", () => {
  const base = { kind: "store", title: "Acme", id: 3, usedNoun: "deal" };

  it("deletes what nothing uses, and ignores a move_to then", () => {
    expect(planDeletion({ ...base, inUse: 0, moveTo: undefined })).toEqual({ moveTo: null });
    expect(planDeletion({ ...base, inUse: 0, moveTo: 9 })).toEqual({ moveTo: null });
  });

  it("refuses while deals remain, saying how many", () => {
    const attempt = () => planDeletion({ ...base, inUse: 12, moveTo: undefined });
    expect(attempt).toThrow(ConflictError);
    expect(attempt).toThrow("“Acme” still has 12 deals. Choose another store to move them to");
    expect(() => planDeletion({ ...base, inUse: 1, moveTo: undefined })).toThrow(
      "still has 1 deal. Choose another store to move it to",
    );
  });

  it("moves them when told where", () => {
    expect(planDeletion({ ...base, inUse: 12, moveTo: 9 })).toEqual({ moveTo: 9 });
  });

  it("refuses moving them to the one being deleted", () => {
    expect(() => planDeletion({ ...base, inUse: 12, moveTo: 3 })).toThrow(ValidationError);
  });
});
