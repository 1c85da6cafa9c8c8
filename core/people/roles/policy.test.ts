import { describe, expect, it } from "vitest";
import type { CurrentUser } from "../../auth/sessions.ts";
import {
  USER_POLICY_MESSAGES as M,
  deletionRefusal,
  roleChangeRefusal,
  suspensionRefusal,
  unsuspensionRefusal,
  userStatus,
  verifiedMarkRefusal,
  type TargetUser,
} from "./policy.ts";

const NOW = new Date("2030-06-15T12:00:00Z");

const staff = (id: number, role: CurrentUser["role"]): CurrentUser => ({
  id,
  name: `Staff ${id}`,
  email: `staff${id}@example.com`,
  image_url: null,
  user_type: "Shopper",
  email_verified: true,
  role,
  sessionId: id * 10,
});

const target = (overrides: Partial<TargetUser> = {}): TargetUser => ({
  id: 100,
  role: "member",
  deleted_at: null,
  suspended_at: null,
  suspended_until: null,
  suspension_reason: "",
  ...overrides,
});

const admin = staff(1, "admin");
const moderator = staff(2, "moderator");

describe("suspensionRefusal", () => {
  it("lets a moderator suspend a member and a moderator, and an admin anyone else", () => {
    expect(suspensionRefusal(moderator, target())).toBeNull();
    expect(suspensionRefusal(moderator, target({ role: "moderator" }))).toBeNull();
    expect(suspensionRefusal(admin, target({ role: "admin" }))).toBeNull();
  });

  it("keeps administrators out of a moderator's reach", () => {
    expect(suspensionRefusal(moderator, target({ role: "admin" }))).toEqual({
      kind: "forbidden",
      message: M.suspendAdmin,
    });
  });

  it("refuses suspending oneself, and a deleted account", () => {
    expect(suspensionRefusal(admin, target({ id: admin.id, role: "admin" }))).toEqual({
      kind: "forbidden",
      message: M.suspendSelf,
    });
    expect(suspensionRefusal(admin, target({ deleted_at: NOW }))?.message).toBe(M.deleted);
  });
});

describe("unsuspensionRefusal", () => {
  const suspended = target({ suspended_at: NOW, suspended_until: null, suspension_reason: "spam" });

  it("lifts a suspension in force", () => {
    expect(unsuspensionRefusal(moderator, suspended, NOW)).toBeNull();
  });

  it("says so when there is none, or when it has already ended", () => {
    expect(unsuspensionRefusal(moderator, target(), NOW)?.message).toBe(M.notSuspended);
    const ended = { ...suspended, suspended_until: new Date("2030-06-15T11:59:59Z") };
    expect(unsuspensionRefusal(moderator, ended, NOW)?.message).toBe(M.notSuspended);
  });

  it("keeps a suspended administrator for administrators", () => {
    expect(unsuspensionRefusal(moderator, { ...suspended, role: "admin" }, NOW)?.message).toBe(
      M.suspendAdmin,
    );
  });
});

describe("roleChangeRefusal", () => {
  it("lets the last administrator promote others but not step down", () => {
    const self = target({ id: admin.id, role: "admin" });
    expect(roleChangeRefusal(admin.id, target(), "admin", 1)).toBeNull();
    expect(roleChangeRefusal(admin.id, self, "member", 0)).toEqual({
      kind: "conflict",
      message: M.lastAdmin,
    });
    expect(roleChangeRefusal(admin.id, self, "moderator", 0)?.message).toBe(M.lastAdmin);
    expect(roleChangeRefusal(admin.id, self, "admin", 0)).toBeNull();
  });

  it("lets an administrator step down when another one remains", () => {
    expect(roleChangeRefusal(admin.id, target({ id: admin.id, role: "admin" }), "member", 1)).toBe(
      null,
    );
  });

  it("keeps the rule for the shell, which is nobody's account", () => {
    expect(roleChangeRefusal(null, target({ role: "admin" }), "member", 0)?.message).toBe(
      M.onlyAdmin,
    );
    expect(roleChangeRefusal(null, target(), "admin", 0)).toBeNull();
  });

  it("refuses a deleted account", () => {
    expect(roleChangeRefusal(admin.id, target({ deleted_at: NOW }), "admin", 1)?.message).toBe(
      M.deleted,
    );
  });
});

describe("deletionRefusal and verifiedMarkRefusal", () => {
  it("deletes others, never oneself, and not twice", () => {
    expect(deletionRefusal(admin, target())).toBeNull();
    expect(deletionRefusal(admin, target({ id: admin.id }))?.message).toBe(M.deleteSelf);
    expect(deletionRefusal(admin, target({ deleted_at: NOW }))?.message).toBe(M.deleted);
  });

  it("marks live accounts only", () => {
    expect(verifiedMarkRefusal(target())).toBeNull();
    expect(verifiedMarkRefusal(target({ deleted_at: NOW }))?.message).toBe(M.deleted);
  });
});

describe("userStatus", () => {
  it("reads deleted, suspended (in force) and active", () => {
    expect(userStatus(target(), NOW)).toBe("active");
    expect(userStatus(target({ deleted_at: NOW, suspended_at: NOW }), NOW)).toBe("deleted");
    expect(userStatus(target({ suspended_at: NOW }), NOW)).toBe("suspended");
    const until = new Date("2030-06-16T00:00:00Z");
    expect(userStatus(target({ suspended_at: NOW, suspended_until: until }), NOW)).toBe(
      "suspended",
    );
    expect(userStatus(target({ suspended_at: NOW, suspended_until: until }), new Date(until))).toBe(
      "active",
    );
  });
});
