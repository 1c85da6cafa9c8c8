import { describe, expect, it } from "vitest";
import {
  OAuthFailure,
  assertIssuedToClient,
  ownerFromFacebookDebugToken,
  ownerFromGoogleTokenInfo,
  ownerFromIntrospection,
} from "./token-info.ts";

const OURS = "our-client";
const THEIRS = "their-client";

describe("assertIssuedToClient (ID tokens)", () => {
  it.each([
    ["aud ours", { aud: OURS }],
    ["aud [ours]", { aud: [OURS] }],
    ["aud ours, azp ours", { aud: OURS, azp: OURS }],
    ["aud [ours, theirs], azp ours", { aud: [OURS, THEIRS], azp: OURS }],
  ])("accepts %s", (_label, claims) => {
    expect(() => assertIssuedToClient(claims, OURS)).not.toThrow();
  });

  it.each([
    ["no aud", {}],
    ["aud theirs", { aud: THEIRS }],
    ["aud [theirs]", { aud: [THEIRS] }],
    ["aud ours, azp theirs", { aud: OURS, azp: THEIRS }],
    ["aud [ours, theirs] without azp", { aud: [OURS, THEIRS] }],
    ["aud [ours, theirs], azp theirs", { aud: [OURS, THEIRS], azp: THEIRS }],
    ["aud of the wrong type", { aud: 42 }],
  ])("refuses %s", (_label, claims) => {
    expect(() => assertIssuedToClient(claims, OURS)).toThrow(OAuthFailure);
  });
});

describe("token-info answers for access tokens", () => {
  const now = new Date("2026-01-10T12:00:00Z");
  const inAnHour = Math.floor(now.getTime() / 1000) + 3600;

  it("RFC 7662 introspection: active and issued to this client", () => {
    expect(
      ownerFromIntrospection(
        { active: true, client_id: OURS, sub: "u1", exp: inAnHour },
        OURS,
        now,
      ),
    ).toEqual({ subject: "u1", claims: {} });
    for (const answer of [
      { active: false },
      { active: true, client_id: THEIRS, sub: "u1" },
      { active: true, sub: "u1" },
      { active: true, client_id: OURS },
      { active: true, client_id: OURS, sub: "u1", exp: inAnHour - 7200 },
    ]) {
      expect(() => ownerFromIntrospection(answer, OURS, now)).toThrow(OAuthFailure);
    }
  });

  it("Google tokeninfo: aud (and azp) this client, not expired", () => {
    const answer = {
      azp: OURS,
      aud: OURS,
      sub: "1170",
      scope: "openid https://www.googleapis.com/auth/userinfo.email",
      exp: String(inAnHour),
      expires_in: "3599",
      email: "a@example.com",
      email_verified: "true",
      access_type: "online",
    };
    expect(ownerFromGoogleTokenInfo(answer, OURS)).toEqual({
      subject: "1170",
      claims: { email: "a@example.com", email_verified: "true" },
    });
    expect(ownerFromGoogleTokenInfo({ aud: OURS, sub: "1", expires_in: 10 }, OURS)).toEqual({
      subject: "1",
      claims: {},
    });
    for (const bad of [
      { ...answer, aud: THEIRS, azp: THEIRS },
      { ...answer, azp: THEIRS },
      { ...answer, aud: THEIRS },
      { ...answer, expires_in: "0" },
      { error_description: "Invalid Value" },
    ]) {
      expect(() => ownerFromGoogleTokenInfo(bad, OURS)).toThrow(OAuthFailure);
    }
  });

  it("Facebook debug_token: valid and for this app", () => {
    const answer = {
      data: {
        app_id: OURS,
        type: "USER",
        application: "Chalkboard Deals",
        expires_at: 1_800_000_000,
        is_valid: true,
        scopes: ["email", "public_profile"],
        user_id: "10215",
      },
    };
    expect(ownerFromFacebookDebugToken(answer, OURS)).toEqual({ subject: "10215", claims: {} });
    for (const bad of [
      { data: { ...answer.data, app_id: THEIRS } },
      { data: { ...answer.data, is_valid: false } },
      { data: { ...answer.data, user_id: undefined } },
      { error: { message: "Invalid OAuth access token." } },
    ]) {
      expect(() => ownerFromFacebookDebugToken(bad, OURS)).toThrow(OAuthFailure);
    }
  });
});
