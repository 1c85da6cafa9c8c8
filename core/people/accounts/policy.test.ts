import { describe, expect, it } from "vitest";
import type { ProviderIdentity } from "../../auth/oauth.ts";
import { DELETE_REAUTH_WINDOW_MS, isRecentSignIn, mayLinkByEmail } from "./policy.ts";

describe("isRecentSignIn: deleting an account needs a recent sign-in", () => {
  const now = new Date("2026-03-01T12:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it("accepts a sign-in within the window, its last moment included", () => {
    expect(isRecentSignIn(ago(0), now)).toBe(true);
    expect(isRecentSignIn(ago(DELETE_REAUTH_WINDOW_MS), now)).toBe(true);
  });

  it("is ten minutes", () => {
    expect(isRecentSignIn(ago(9 * 60_000), now)).toBe(true);
    expect(isRecentSignIn(ago(11 * 60_000), now)).toBe(false);
  });

  it("refuses an older sign-in", () => {
    expect(isRecentSignIn(ago(DELETE_REAUTH_WINDOW_MS + 1), now)).toBe(false);
    expect(isRecentSignIn(ago(24 * 60 * 60 * 1000), now)).toBe(false);
  });
});

describe("mayLinkByEmail: a provider sign-in joins an account with the same address", () => {
  const identity: ProviderIdentity = {
    provider: "google",
    subject: "provider-user-1",
    email: "teacher@example.com",
    emailVerified: true,
    name: "A Teacher",
    picture: null,
  };

  it("when the provider verified the address", () => {
    expect(mayLinkByEmail(identity)).toBe(true);
  });

  it("not when the address is unverified or missing", () => {
    expect(mayLinkByEmail({ ...identity, emailVerified: false })).toBe(false);
    expect(mayLinkByEmail({ ...identity, email: null })).toBe(false);
    expect(mayLinkByEmail({ ...identity, email: null, emailVerified: true })).toBe(false);
  });
});
