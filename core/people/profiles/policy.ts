import type { CurrentUser } from "../../auth/sessions.ts";

/**
 * The profile fields shown to their owner alone, as the privacy policy promises ("Profile
 * information you choose to add"; docs/decisions/0019). Every other field of a profile is public.
 * tests/integration/profiles.test.ts reads the policy's text and checks it says the same.
 */
export const OWNER_ONLY_PROFILE_FIELDS = [
  "user_dob",
  "user_gender",
  "user_email",
  "user_mobile",
  "user_address",
] as const;

export type OwnerOnlyProfileField = (typeof OWNER_ONLY_PROFILE_FIELDS)[number];

/** Private profile fields and the subscription block are shown to their owner only. */
export function isProfileOwner(viewer: CurrentUser | null, profileUserId: number): boolean {
  return viewer !== null && viewer.id === profileUserId;
}
