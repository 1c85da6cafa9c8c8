import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import type { OAuthProviderName } from "./schema.ts";

export type EmailTokenPurpose = "confirm" | "reset" | "email_change";

const accountColumns = [
  "users.id",
  "users.name",
  "users.email",
  "users.password_hash",
  "users.image_url",
  "users.email_verified_at",
] as const;

export type AccountRow = NonNullable<Awaited<ReturnType<typeof findLiveUserById>>>;

/** A live (not deleted) account by address, case-insensitively (served by users_email_live_key). */
export function findLiveUserByEmail(db: DbOrTx, email: string) {
  return db
    .selectFrom("users")
    .select(accountColumns)
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export function findLiveUserById(db: DbOrTx, id: number) {
  return db
    .selectFrom("users")
    .select(accountColumns)
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/**
 * The id the next account is likely to get: a script's decoy sign-up answers with it, so that its
 * answer looks like the one a real sign-up gets (record 0085). Nothing is reserved.
 */
export async function nextUserIdGuess(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.max("id").as("last"))
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

export async function insertUser(
  db: DbOrTx,
  user: {
    name: string;
    email: string;
    passwordHash: string | null;
    imageUrl?: string | null;
    emailVerifiedAt?: Date | null;
  },
): Promise<AccountRow> {
  return db
    .insertInto("users")
    .values({
      name: user.name,
      email: user.email,
      password_hash: user.passwordHash,
      image_url: user.imageUrl ?? null,
      email_verified_at: user.emailVerifiedAt ?? null,
    })
    .returning(accountColumns)
    .executeTakeFirstOrThrow();
}

export async function setPasswordHash(db: DbOrTx, userId: number, passwordHash: string, now: Date) {
  await db
    .updateTable("users")
    .set({ password_hash: passwordHash, updated_at: now })
    .where("id", "=", userId)
    .execute();
}

/** Marks the address confirmed unless it already was. */
export async function markEmailVerified(db: DbOrTx, userId: number, now: Date) {
  await db
    .updateTable("users")
    .set({ email_verified_at: now, updated_at: now })
    .where("id", "=", userId)
    .where("email_verified_at", "is", null)
    .execute();
}

/**
 * The account's address becomes `email`, confirmed now: its owner opened a link mailed to it.
 * users_email_live_key refuses an address another live account holds (a unique violation).
 */
export async function changeEmail(db: DbOrTx, userId: number, email: string, now: Date) {
  await db
    .updateTable("users")
    .set({ email, email_verified_at: now, updated_at: now })
    .where("id", "=", userId)
    .where("deleted_at", "is", null)
    .execute();
}

/** Whether a live account other than `userId` holds `email` (case-insensitively). */
export async function isEmailTakenByOther(db: DbOrTx, email: string, userId: number) {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .where("deleted_at", "is", null)
    .where("id", "!=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

// Mailed single-use codes --------------------------------------------------------------------

export async function insertEmailToken(
  db: DbOrTx,
  token: {
    userId: number;
    purpose: EmailTokenPurpose;
    tokenHash: string;
    expiresAt: Date;
    /** The address an `email_change` code confirms (only then). */
    newEmail?: string;
  },
) {
  await db
    .insertInto("email_tokens")
    .values({
      user_id: token.userId,
      purpose: token.purpose,
      token_hash: token.tokenHash,
      expires_at: token.expiresAt,
      new_email: token.newEmail ?? null,
    })
    .execute();
}

/** The code with this hash and purpose, with its live account; used or expired codes included. */
export function findEmailToken(db: DbOrTx, purpose: EmailTokenPurpose, tokenHash: string) {
  return db
    .selectFrom("email_tokens")
    .innerJoin("users", "users.id", "email_tokens.user_id")
    .select([
      "email_tokens.id as token_id",
      "email_tokens.expires_at",
      "email_tokens.used_at",
      "email_tokens.new_email",
      ...accountColumns,
    ])
    .where("email_tokens.token_hash", "=", tokenHash)
    .where("email_tokens.purpose", "=", purpose)
    .where("users.deleted_at", "is", null)
    .executeTakeFirst();
}

/** The address of the member's newest address-change link still usable, or undefined. */
export async function findPendingEmailChange(db: DbOrTx, userId: number, now: Date) {
  const row = await db
    .selectFrom("email_tokens")
    .select("new_email")
    .where("user_id", "=", userId)
    .where("purpose", "=", "email_change")
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row?.new_email ?? undefined;
}

/**
 * Uses a code once: true for the one caller that marked it, false when it was already used (two
 * clicks racing each other cannot both succeed).
 */
export async function consumeEmailToken(db: DbOrTx, tokenId: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("email_tokens")
    .set({ used_at: now })
    .where("id", "=", tokenId)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Retires every unused code of a purpose, e.g. older reset links once a new one is mailed. */
export async function retireEmailTokens(
  db: DbOrTx,
  userId: number,
  purpose: EmailTokenPurpose,
  now: Date,
) {
  await db
    .updateTable("email_tokens")
    .set({ used_at: now })
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
}

// Social sign-in ----------------------------------------------------------------------------------

export function findUserByOAuthAccount(db: DbOrTx, provider: OAuthProviderName, subject: string) {
  return db
    .selectFrom("oauth_accounts")
    .innerJoin("users", "users.id", "oauth_accounts.user_id")
    .select(accountColumns)
    .where("oauth_accounts.provider", "=", provider)
    .where("oauth_accounts.provider_user_id", "=", subject)
    .where("users.deleted_at", "is", null)
    .executeTakeFirst();
}

export async function linkOAuthAccount(
  db: DbOrTx,
  userId: number,
  provider: OAuthProviderName,
  subject: string,
) {
  await db
    .insertInto("oauth_accounts")
    .values({ user_id: userId, provider, provider_user_id: subject })
    .onConflict((oc) => oc.columns(["provider", "provider_user_id"]).doNothing())
    .execute();
}

// Sessions -------------------------------------------------------------------------------------

/**
 * The account's suspension, read under a share lock: a suspension being written at the same time
 * (which also ends the account's sessions) waits for the new session, or the new session for it.
 */
export function findSuspensionForSignIn(db: DbOrTx, userId: number) {
  return db
    .selectFrom("users")
    .select(["suspended_at", "suspended_until", "suspension_reason"])
    .where("id", "=", userId)
    .forShare()
    .executeTakeFirst();
}

export async function findSessionCreatedAt(db: DbOrTx, sessionId: number): Promise<Date | null> {
  const row = await db
    .selectFrom("sessions")
    .select("created_at")
    .where("id", "=", sessionId)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

// Account deletion (docs/decisions/0014-account-deletion.md) --------------------------------

/** The account about to be deleted, locked until the transaction ends; null when there is none. */
export function lockAccountForDeletion(db: DbOrTx, userId: number) {
  return db
    .selectFrom("users")
    .select(["id", "name", "email", "image_url"])
    .where("id", "=", userId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Deletes every row that is one member's own (docs/decisions/0014-account-deletion.md, amended
 * 2026-11-29): what they set up (alerts and their matches, saved deals, follows of stores,
 * categories and members both ways, mail preferences), what the site kept for them
 * (notifications, the notification mail log, sessions, mailed codes, linked Google/Facebook
 * accounts and their pending links, educator verification requests, wishlist entries not approved,
 * subscriptions, contact messages sent while signed in) and their votes: likes, "Expired?" marks,
 * coupon answers and reports they filed. Counts kept in columns (a post's likes and unlikes, and
 * its trending score) are recounted; the others are counted from these rows when read, so they
 * drop with them. Other members' notifications that name them as the one who acted lose them:
 * a like or a follow (now gone) is no longer told of; a comment, which stays, is told of as the
 * "Deleted user"'s (or, when their comments went too, no longer). Rows that name no member but
 * their address (the undeliverable mark, failed sign-ins, queued mail) are the caller's.
 */
export async function deleteMemberRows(
  db: DbOrTx,
  member: { id: number; name: string },
  options: { commentsRemoved: boolean; at: Date },
) {
  const userId = member.id;
  // Open reports about the member are settled, as those of a deleted post are: nothing is left
  // to act on.
  await db
    .updateTable("reports")
    .set({ status: "resolved", resolution: "deleted", resolved_at: options.at })
    .where("status", "=", "open")
    .where("item_type", "=", "user")
    .where("item_id", "=", String(userId))
    .execute();
  const unliked = await db
    .deleteFrom("likes")
    .where("user_id", "=", userId)
    .returning("post_id")
    .execute();
  if (unliked.length > 0) {
    await recountReactions(
      db,
      unliked.map((row) => row.post_id),
    );
  }
  // Their likes on comments (migration 039): the counts follow by trigger, and the comments'
  // authors are marked for the reputation job's next run, as a taken-back like marks them.
  const unlikedComments = await db
    .deleteFrom("comment_likes")
    .where("user_id", "=", userId)
    .returning("comment_id")
    .execute();
  if (unlikedComments.length > 0) {
    await db
      .updateTable("comments")
      .set({ likes_changed_at: options.at })
      .where(
        "id",
        "in",
        unlikedComments.map((row) => row.comment_id),
      )
      .execute();
  }
  await db.deleteFrom("expiry_marks").where("user_id", "=", userId).execute();
  await db.deleteFrom("coupon_feedback").where("user_id", "=", userId).execute();
  await db.deleteFrom("reports").where("reporter_id", "=", userId).execute();
  await db
    .deleteFrom("follows")
    .where((eb) => eb.or([eb("follower_id", "=", userId), eb("followee_id", "=", userId)]))
    .execute();
  await db.deleteFrom("store_follows").where("user_id", "=", userId).execute();
  await db.deleteFrom("category_follows").where("user_id", "=", userId).execute();
  await db.deleteFrom("saved_deals").where("user_id", "=", userId).execute();
  // alert_matches go with their alerts (ON DELETE CASCADE of migration 025).
  await db.deleteFrom("alerts").where("user_id", "=", userId).execute();
  await db.deleteFrom("notifications").where("user_id", "=", userId).execute();
  await forgetActorInNotifications(db, member, options);
  await db.deleteFrom("email_preferences").where("user_id", "=", userId).execute();
  await db.deleteFrom("notification_mail_log").where("user_id", "=", userId).execute();
  // Push (migration 040): their devices and messages; deliveries go with them (ON DELETE CASCADE).
  await db.deleteFrom("push_messages").where("user_id", "=", userId).execute();
  await db.deleteFrom("push_subscriptions").where("user_id", "=", userId).execute();
  await db.deleteFrom("weekly_digests").where("user_id", "=", userId).execute();
  await db.deleteFrom("oauth_accounts").where("user_id", "=", userId).execute();
  await db.deleteFrom("oauth_link_requests").where("user_id", "=", userId).execute();
  await db.deleteFrom("email_tokens").where("user_id", "=", userId).execute();
  // Verification requests keep a school address and a note: personal data. Wishlist entries still
  // waiting for review (or refused) go too; approved ones stay public, as the member's posts do.
  await db.deleteFrom("educator_requests").where("user_id", "=", userId).execute();
  await db
    .deleteFrom("teachers_wishlist")
    .where("user_id", "=", userId)
    .where("status", "!=", "approved")
    .execute();
  await db.deleteFrom("subscriptions").where("user_id", "=", userId).execute();
  await db.deleteFrom("contact_messages").where("user_id", "=", userId).execute();
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  // Their reputation (migration 033): points, the ledger that explains them, badges. The job
  // counts no deleted account again (core/people/reputation/repository.ts memberIdsAfter).
  await db.deleteFrom("reputation_ledger").where("user_id", "=", userId).execute();
  await db.deleteFrom("member_badges").where("user_id", "=", userId).execute();
  // Staff's warnings and voting blocks (migration 038): about the member, so theirs to lose.
  await db.deleteFrom("voting_restrictions").where("user_id", "=", userId).execute();
  await db.deleteFrom("member_reputation").where("user_id", "=", userId).execute();
  // A member of staff's replies to contact messages stay (they were sent), without their name.
  await db
    .updateTable("contact_replies")
    .set({ author_name: "Deleted user" })
    .where("author_id", "=", userId)
    .execute();
}

/** Kinds of notification that tell of an action of another member that deletion takes back. */
const UNDONE_ACTION_KINDS = ["post_like", "new_follower"];

/**
 * Other members' notifications naming the member as the one who acted (notifications.actor_ids,
 * core/member/notifications/notify.ts). A message begins with the newest actor's name: theirs
 * becomes "Deleted user".
 */
async function forgetActorInNotifications(
  db: DbOrTx,
  member: { id: number; name: string },
  options: { commentsRemoved: boolean },
) {
  const { id } = member;
  const undone = options.commentsRemoved ? null : UNDONE_ACTION_KINDS;
  await db
    .deleteFrom("notifications")
    .where(sql<boolean>`actor_ids = ARRAY[${id}]::bigint[]`)
    .$if(undone !== null, (qb) => qb.where("kind", "in", undone!))
    .execute();
  await db
    .updateTable("notifications")
    .set({
      actor_ids: sql`array_remove(actor_ids, ${id}::bigint)`,
      message: sql`CASE WHEN starts_with(message, ${member.name + " "})
                        THEN 'Deleted user' || substr(message, length(${member.name}) + 1)
                        ELSE message END`,
    })
    .where(sql<boolean>`${id}::bigint = ANY(actor_ids)`)
    .execute();
}

/** Forgets failed sign-ins, an undeliverable mark and such rows keyed by the member's address. */
export async function deleteAddressRows(db: DbOrTx, address: string, signInKey: string) {
  await db
    .deleteFrom("undeliverable_addresses")
    .where("address", "=", address.toLowerCase())
    .execute();
  await db.deleteFrom("sign_in_attempts").where("address_hash", "=", signInKey).execute();
}

/**
 * The users row becomes the anonymous "Deleted user" its kept posts and comments, and the audit
 * log's entries about staff actions, still point at.
 */
export async function anonymiseUser(db: DbOrTx, userId: number, now: Date, tombstone: string) {
  await db
    .updateTable("users")
    .set({
      name: "Deleted user",
      email: tombstone,
      password_hash: null,
      image_url: null,
      dob: null,
      gender: null,
      biography: "",
      mobile: "",
      website: "",
      address: "",
      // What the member said they are, and what staff wrote or decided about them.
      user_type: "Member",
      verified_educator: false,
      suspension_reason: "",
      email_verified_at: null,
      deleted_at: now,
      updated_at: now,
    })
    .where("id", "=", userId)
    .execute();
}

/** Recounts likes and unlikes of some posts from the likes table, and their trending score. */
async function recountReactions(db: DbOrTx, postIds: number[]) {
  await sql`
    WITH counts AS (
      SELECT p.id,
             (SELECT count(*)::int FROM likes l WHERE l.post_id = p.id AND l.reaction = 'like') AS likes,
             (SELECT count(*)::int FROM likes l WHERE l.post_id = p.id AND l.reaction = 'unlike') AS unlikes
        FROM posts p
       WHERE p.id = ANY(${postIds}::bigint[])
    )
    UPDATE posts
       SET likes_count = counts.likes,
           unlikes_count = counts.unlikes
      FROM counts
     WHERE posts.id = counts.id`.execute(db);
}
