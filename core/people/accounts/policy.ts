import type { ProviderIdentity } from "../../auth/oauth.ts";

/**
 * Deleting an account needs a sign-in this recent (the delete page signs in right before), by any
 * door that deletes: `POST /api/user_deleted` and `/api/social_signin_deleted` alike.
 */
export const DELETE_REAUTH_WINDOW_MS = 10 * 60 * 1000;

export function isRecentSignIn(signedInAt: Date, now: Date): boolean {
  return now.getTime() - signedInAt.getTime() <= DELETE_REAUTH_WINDOW_MS;
}

/**
 * A provider sign-in joins an existing account with the same address only when the provider says
 * it verified that address; otherwise anyone could register the address at the provider and
 * take the account over.
 */
export function mayLinkByEmail(identity: ProviderIdentity): boolean {
  return identity.email !== null && identity.emailVerified;
}
