import { randomBytes } from "node:crypto";
import {
  OAuthFailure,
  createOAuthClients,
  withProviderPicture,
  type ProviderIdentity,
} from "../../auth/oauth.ts";
import { hashPassword, verifyPassword } from "../../auth/password.ts";
import { requireActingUser, requireUser } from "../../auth/policy.ts";
import {
  claimLockNotice,
  clearFailures,
  countAttempt,
  isLock,
  signInKey,
  SIGN_IN_LIMITS,
  waitOn,
  type Attempt,
} from "../../auth/sign-in-attempts.ts";
import { accountSuspendedError, isSuspended } from "../../auth/suspension.ts";
import * as links from "./provider-link-requests.ts";
import {
  createSession,
  deleteSession,
  deleteUserSessions,
  hashToken,
  type CurrentUser,
} from "../../auth/sessions.ts";
import type { DbOrTx } from "../../../db/index.ts";
import type { Deps } from "../../deps.ts";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RejectedError,
  TooManyAttemptsError,
  UnauthenticatedError,
  ValidationError,
} from "../../errors.ts";
import type { MailContent } from "../../mail/templates.ts";
import {
  confirmEmailMail,
  emailChangeMail,
  emailChangedMail,
  linkProviderMail,
  passwordChangedMail,
  resetPasswordMail,
  signInLockedMail,
} from "../../mail/templates.ts";
import { findUndeliverable } from "../../mail/delivery-repository.ts";
import { insertMediaRecord } from "../../media/image-records.ts";
import type { SettingsService } from "../../settings/service.ts";
import { deleteAccount, type AccountDeletionOptions } from "./account-deletion.ts";
import { isCommonPassword } from "./common-passwords.ts";
import { isDisposableEmail } from "./disposable-email.ts";
import { isRecentSignIn, mayLinkByEmail } from "./policy.ts";
import * as repo from "./repository.ts";
import { createSignupFormStamps, type StampVerdict } from "./signup-form-stamp.ts";
import {
  ACCOUNT_MESSAGES as M,
  emailChangeSentMessage,
  type ChangePasswordInput,
  type ConfirmEmailChangeInput,
  type DeleteAccountInput,
  type EmailChangeInput,
  type ForgotPasswordInput,
  type ResendConfirmationInput,
  type ResetPasswordInput,
  type SigninInput,
  type SignupInput,
  type SocialSigninInput,
  type VerifyInput,
} from "./schema.ts";

const HOUR_MS = 60 * 60 * 1000;
/** How long mailed links work. */
export const CONFIRM_LINK_TTL_MS = 48 * HOUR_MS;
export const RESET_LINK_TTL_MS = 1 * HOUR_MS;
export const PROVIDER_LINK_TTL_MS = 24 * HOUR_MS;
export const EMAIL_CHANGE_LINK_TTL_MS = 24 * HOUR_MS;

/** What a link to change an address is worth, as its page says before it is used. */
export type EmailChangeLinkState =
  { state: "usable"; newEmail: string } | { state: "used" } | { state: "invalid" };

/** Where a request comes from, for the session it may start. */
export interface SignInContext {
  userAgent: string;
  /** The session the request already had: signing in replaces it (no session fixation). */
  previousSessionId?: number;
  /** Who is signed in: a provider sign-in by a signed-in user links the provider to them. */
  currentUser?: CurrentUser | null;
}

/** Why a browser went to the provider: to sign in, to sign in before deleting, or to link. */
export type SocialIntent = "login" | "delete" | "link";

const PROVIDER_NAMES = { google: "Google", facebook: "Facebook" } as const;

/** A hash to check wrong addresses against, so a failed sign-in takes as long either way. */
let decoyHash: Promise<string> | undefined;

function newEmailCode(): string {
  return randomBytes(32).toString("base64url");
}

/** Turns a unique-index violation (a second request racing the first) into the spec's answer. */
function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: string }).code === "23505"
  );
}

function emailTaken(): ValidationError {
  return new ValidationError({ email: M.emailTaken });
}

/** What a sign-up answers with: the account made, or a script's decoy (record 0085). */
export type SignedUpAccount = Pick<repo.AccountRow, "id" | "name" | "email" | "email_verified_at">;

/**
 * Why a sign-up is a script's (record 0085), or null: the honeypot came filled, or the form's
 * stamp is not the site's or came back too soon. No stamp is no finding: the spec's clients send
 * none. An expired stamp is a person's tab left open, told so, not a script's.
 */
function scriptedSignupReason(honeypotFilled: boolean, stamp: StampVerdict): string | null {
  if (honeypotFilled) return "honeypot filled";
  if (stamp === "forged") return "form stamp forged";
  if (stamp === "too_fast") return "form sent too fast";
  return null;
}

/** Sign-up, confirmation, sign-in and out, password reset and change, deletion, social sign-in. */
export function createAccountsService(deps: Deps, settings: Pick<SettingsService, "get">) {
  const { db, config, mail, log, now } = deps;
  const oauth = createOAuthClients(config);
  const formStamps = createSignupFormStamps(db);

  async function siteName(): Promise<string> {
    return (await settings.get()).websiteName;
  }

  /** Queues one mail in `tx`, the transaction of the write that causes it. */
  function queueMail(tx: DbOrTx, to: string, content: MailContent) {
    return mail.send({ to, ...content }, tx);
  }

  function refuseCommonPassword(field: string, password: string) {
    if (isCommonPassword(password)) throw new ValidationError({ [field]: M.passwordCommon });
  }

  /** A new single-use code for a mailed link, written in `tx` (the transaction that mails it). */
  async function issueEmailCode(
    tx: DbOrTx,
    userId: number,
    purpose: repo.EmailTokenPurpose,
    ttlMs: number,
    /** The address an `email_change` code confirms. */
    newEmail?: string,
  ): Promise<string> {
    const code = newEmailCode();
    const at = now();
    // Only the newest reset or address-change link works; older confirmation links stay valid
    // until they expire.
    if (purpose !== "confirm") await repo.retireEmailTokens(tx, userId, purpose, at);
    await repo.insertEmailToken(tx, {
      userId,
      purpose,
      tokenHash: hashToken(code),
      expiresAt: new Date(at.getTime() + ttlMs),
      ...(newEmail === undefined ? {} : { newEmail }),
    });
    return code;
  }

  /**
   * A new single-use password reset link for `userId`, written in `tx` (the transaction that mails
   * it): what the forgot-password mail and the sign-in lock's mail both carry.
   */
  async function issueResetLink(tx: DbOrTx, userId: number) {
    const code = await issueEmailCode(tx, userId, "reset", RESET_LINK_TTL_MS);
    return {
      link: `${config.publicUrl}/reset-password/${code}`,
      validMinutes: RESET_LINK_TTL_MS / 60_000,
    };
  }

  /** A confirmation code and its mail, in `tx`; `site` is read before the transaction. */
  async function queueConfirmation(
    tx: DbOrTx,
    user: { id: number; name: string; email: string },
    site: string,
  ) {
    const code = await issueEmailCode(tx, user.id, "confirm", CONFIRM_LINK_TTL_MS);
    await queueMail(
      tx,
      user.email,
      confirmEmailMail({
        siteName: site,
        name: user.name,
        link: `${config.publicUrl}/confirm/${code}`,
        validHours: CONFIRM_LINK_TTL_MS / HOUR_MS,
      }),
    );
  }

  async function mailConfirmation(user: { id: number; name: string; email: string }) {
    const site = await siteName();
    await db.transaction().execute((tx) => queueConfirmation(tx, user, site));
  }

  function queuePasswordChanged(tx: DbOrTx, user: { name: string; email: string }, site: string) {
    return queueMail(
      tx,
      user.email,
      passwordChangedMail({
        siteName: site,
        name: user.name,
        forgotPasswordLink: `${config.publicUrl}/forgotpassword`,
      }),
    );
  }

  function lockedOut(retryAfterSeconds: number) {
    return new TooManyAttemptsError(M.signinLocked, retryAfterSeconds);
  }

  /**
   * Every sign-in ends here, so a suspended or locked account is refused whichever door it came
   * through. `proof` is what proved the person: a password was checked against the address's
   * count already (`signin`); any other proof (Google, Facebook, a mailed link) waits out a delay
   * or lock like a password would (docs/decisions/0073-sign-in-guessing-limits.md).
   */
  async function startSession(
    user: { id: number; email: string },
    context: SignInContext,
    proof: "password" | "other",
  ) {
    return db.transaction().execute(async (tx) => {
      const suspension = await repo.findSuspensionForSignIn(tx, user.id);
      if (suspension && isSuspended(suspension, now())) throw accountSuspendedError(suspension);
      if (proof === "other") {
        const wait = await waitOn(tx, signInKey(user.email), now());
        if (wait > 0) throw lockedOut(wait);
      }
      if (context.previousSessionId !== undefined)
        await deleteSession(tx, context.previousSessionId);
      return createSession(tx, user.id, context.userAgent, now());
    });
  }

  /**
   * After a failed attempt that started a lock: the account's owner is mailed, once per lock, a
   * single-use reset link (which also ends the lock), in the transaction that marks the lock as
   * told. The mark is written for unknown addresses too, so both take the same steps.
   */
  async function tellOfLock(
    tx: DbOrTx,
    attempt: Extract<Attempt, { refused: false }>,
    account: { id: number; name: string; email: string } | undefined,
    site: string,
  ) {
    if (!isLock(attempt.state) || !attempt.state.retry_at) return;
    const told = await claimLockNotice(tx, attempt.key, attempt.state.retry_at, now());
    if (!told || !account) return;
    await queueMail(
      tx,
      account.email,
      signInLockedMail({
        siteName: site,
        name: account.name,
        ...(await issueResetLink(tx, account.id)),
        lockedMinutes: SIGN_IN_LIMITS.lockMs / 60_000,
      }),
    );
  }

  /**
   * A provider token that did not verify counts as a failed sign-in to the address the payload
   * claims (the spec's social payload carries `email`); a lock started by it is told by mail in the
   * same transaction.
   */
  async function countSocialFailure(claimedEmail: string) {
    const account = await repo.findLiveUserByEmail(db, claimedEmail);
    const site = await siteName();
    await db.transaction().execute(async (tx) => {
      const attempt = await countAttempt(tx, signInKey(claimedEmail), now);
      if (!attempt.refused) await tellOfLock(tx, attempt, account, site);
    });
  }

  /** A code from a mailed link that can still be used, or null. */
  async function usableCode(purpose: repo.EmailTokenPurpose, code: string) {
    const row = await repo.findEmailToken(db, purpose, hashToken(code));
    if (!row || row.expires_at.getTime() <= now().getTime()) return null;
    return row;
  }

  /** Removes a person's data (docs/decisions/0014-account-deletion.md). */
  function deleteAccountData(userId: number, options: AccountDeletionOptions = {}) {
    return deleteAccount(deps, userId, undefined, options);
  }

  /**
   * The account a provider identity is linked to, or null. Never found by address alone: an
   * address the provider vouches for only lets its owner confirm a link by mail
   * (docs/decisions/0026-social-sign-in.md).
   */
  async function accountForIdentity(identity: ProviderIdentity) {
    return (await repo.findUserByOAuthAccount(db, identity.provider, identity.subject)) ?? null;
  }

  /**
   * Links a provider identity to an account; refused (409) when the identity already belongs to
   * another account.
   */
  async function linkIdentity(tx: DbOrTx, userId: number, identity: ProviderIdentity) {
    await repo.linkOAuthAccount(tx, userId, identity.provider, identity.subject);
    const owner = await repo.findUserByOAuthAccount(tx, identity.provider, identity.subject);
    if (owner?.id !== userId) throw new ConflictError(M.socialFailed);
  }

  /**
   * Mails the owner of an existing account a single-use link that joins this provider identity to
   * it; the link works only when it comes back with the same identity.
   */
  async function offerLinkByMail(account: repo.AccountRow, identity: ProviderIdentity) {
    const code = newEmailCode();
    const at = now();
    const site = await siteName();
    await db.transaction().execute(async (tx) => {
      await links.retireLinkRequests(tx, account.id, identity.provider, at);
      await links.insertLinkRequest(tx, {
        userId: account.id,
        provider: identity.provider,
        subject: identity.subject,
        tokenHash: hashToken(code),
        expiresAt: new Date(at.getTime() + PROVIDER_LINK_TTL_MS),
      });
      await queueMail(
        tx,
        account.email,
        linkProviderMail({
          siteName: site,
          name: account.name,
          providerName: PROVIDER_NAMES[identity.provider],
          link: `${config.publicUrl}/auth/${identity.provider}/link/${code}`,
          validHours: PROVIDER_LINK_TTL_MS / HOUR_MS,
        }),
      );
    });
    return true;
  }

  /**
   * The identity a mobile app's provider token proves. The address the payload claims is a
   * counting door (docs/decisions/0073): refused while it waits out a delay or lock, and a token
   * that does not verify counts as a failure against it.
   */
  async function verifiedIdentity(body: SocialSigninInput): Promise<ProviderIdentity> {
    if (!oauth.isAvailable(body.provider)) throw new UnauthenticatedError(M.socialFailed);
    const claimed = body.email.trim();
    if (claimed) {
      const wait = await waitOn(db, signInKey(claimed), now());
      if (wait > 0) throw lockedOut(wait);
    }
    try {
      const identity = await oauth.verifyToken(body.provider, {
        idToken: body.id_token || undefined,
        accessToken: body.access_token || undefined,
      });
      // The payload's provider_id, when given, must be the token's own subject.
      if (body.provider_id && body.provider_id !== identity.subject) {
        throw new OAuthFailure("provider_id is not the token's subject");
      }
      return identity;
    } catch (error) {
      if (!(error instanceof OAuthFailure)) throw error;
      log.warn(`social sign-in token refused (${body.provider}): ${error.message}`);
      if (claimed) await countSocialFailure(claimed);
      throw new UnauthenticatedError(M.socialFailed);
    }
  }

  const service = {
    oauth,

    /** The register form's signed render time (record 0085), for the page to carry. */
    signupFormStamp(): Promise<string> {
      return formStamps.issue(now());
    },

    /**
     * POST /api/signup and the Register page: a new, unconfirmed account and its confirmation
     * mail. A script's sign-up (record 0085: the honeypot filled, or the form's stamp forged or
     * sent back too soon) that passes every check gets the same answer with a decoy account, and
     * nothing is made or mailed; the log says so in one line, without the address. The checks
     * come first, so that a script is answered as a person would be, and a quick person who made
     * a mistake is told of it.
     */
    async signup({
      name,
      email,
      password,
      website,
      form_stamp,
    }: SignupInput): Promise<{ user: SignedUpAccount; mailed: boolean }> {
      const stamp = await formStamps.judge(form_stamp, now());
      if (stamp === "expired") throw new ValidationError({ form_stamp: M.signupFormExpired });
      refuseCommonPassword("password", password);
      if (isDisposableEmail(email)) throw new ValidationError({ email: M.disposableEmail });
      if (await repo.findLiveUserByEmail(db, email)) throw emailTaken();
      const scripted = scriptedSignupReason(website, stamp);
      if (scripted) {
        log.info(`sign-up answered as made but not made: ${scripted}`);
        const decoy = { id: await repo.nextUserIdGuess(db), name, email, email_verified_at: null };
        return { user: decoy, mailed: true };
      }
      const passwordHash = await hashPassword(password);
      const site = await siteName();
      let user: repo.AccountRow;
      try {
        // The account and its confirmation mail: both or neither.
        user = await db.transaction().execute(async (tx) => {
          const created = await repo.insertUser(tx, { name, email, passwordHash });
          await queueConfirmation(tx, created, site);
          return created;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
      // The mail is queued; the job queue sends it, retrying while the mail server is away.
      return { user, mailed: true };
    },

    /** POST /api/resend_confirmation: the same answer whether or not the address is known. */
    async resendConfirmation({ email }: ResendConfirmationInput) {
      const user = await repo.findLiveUserByEmail(db, email);
      if (user && !user.email_verified_at) await mailConfirmation(user);
      return { message: M.confirmationResent };
    },

    /** POST /api/verify: uses a confirmation code once. */
    async verifyEmail({ confirmation_code }: VerifyInput) {
      const row = await repo.findEmailToken(db, "confirm", hashToken(confirmation_code));
      if (row?.used_at) throw new RejectedError(M.confirmationUsed);
      if (!row || row.expires_at.getTime() <= now().getTime()) {
        throw new RejectedError(M.confirmationInvalid);
      }
      const at = now();
      const confirmed = await db.transaction().execute(async (tx) => {
        if (!(await repo.consumeEmailToken(tx, row.token_id, at))) return false;
        await repo.markEmailVerified(tx, row.id, at);
        return true;
      });
      if (!confirmed) throw new RejectedError(M.confirmationUsed);
      return {
        user: { ...row, email_verified_at: row.email_verified_at ?? at },
        message: M.emailConfirmed,
      };
    },

    /**
     * POST /api/signin, the login page's form and the delete-account page's sign-in: one generic
     * failure, whether the address is unknown or the password wrong. Each attempt is counted
     * against the address before the password is checked, and refused (429) while the address
     * waits out a delay or lock, known or not (docs/decisions/0073).
     */
    async signin({ email, password }: SigninInput, context: SignInContext) {
      const attempt = await db
        .transaction()
        .execute((tx) => countAttempt(tx, signInKey(email), now));
      if (attempt.refused) throw lockedOut(attempt.retryAfterSeconds);
      const user = await repo.findLiveUserByEmail(db, email);
      let proved = false;
      if (user?.password_hash) proved = await verifyPassword(user.password_hash, password);
      else {
        decoyHash ??= hashPassword(newEmailCode());
        await verifyPassword(await decoyHash, password);
      }
      if (!user || !proved) {
        if (isLock(attempt.state)) {
          const site = await siteName();
          await db.transaction().execute((tx) => tellOfLock(tx, attempt, user, site));
        }
        throw new UnauthenticatedError(M.signinFailed);
      }
      // The right password forgets the failures, whatever happens next (a suspension refuses it).
      await clearFailures(db, signInKey(email));
      const session = await startSession(user, context, "password");
      return { user, token: session.token, message: M.signinSuccess };
    },

    /** POST /api/logout: ends this session (the cookie is cleared by the caller). */
    async logout(user: CurrentUser | null) {
      if (user) await deleteSession(db, user.sessionId);
      return { message: M.loggedOut };
    },

    /** POST /api/forgot_password: mails a single-use reset link (no password is ever mailed). */
    async forgotPassword({ email }: ForgotPasswordInput) {
      const user = await repo.findLiveUserByEmail(db, email);
      if (!user) throw new NotFoundError(M.forgotNotFound);
      const site = await siteName();
      await db.transaction().execute(async (tx) => {
        await queueMail(
          tx,
          user.email,
          resetPasswordMail({
            siteName: site,
            name: user.name,
            ...(await issueResetLink(tx, user.id)),
          }),
        );
      });
      return { message: M.forgotSent };
    },

    /** Whether a reset link can still be used (the reset page asks before showing its form). */
    async isResetLinkUsable(code: string): Promise<boolean> {
      if (!code || code.length > 200) return false;
      const row = await usableCode("reset", code);
      return row !== null && row.used_at === null;
    },

    /** POST /api/reset_password: a new password from a mailed link; every session ends. */
    async resetPassword({ token, password }: ResetPasswordInput) {
      refuseCommonPassword("password", password);
      const row = await usableCode("reset", token);
      if (!row || row.used_at) throw new RejectedError(M.resetLinkInvalid);
      const passwordHash = await hashPassword(password);
      const at = now();
      const site = await siteName();
      const done = await db.transaction().execute(async (tx) => {
        if (!(await repo.consumeEmailToken(tx, row.token_id, at))) return false;
        await repo.setPasswordHash(tx, row.id, passwordHash, at);
        // The link reached the mailbox, so the address is the person's.
        await repo.markEmailVerified(tx, row.id, at);
        await repo.retireEmailTokens(tx, row.id, "reset", at);
        await deleteUserSessions(tx, row.id);
        // The mailbox proved the person: a lock from failed sign-ins ends (docs/decisions/0073).
        await clearFailures(tx, signInKey(row.email));
        await queuePasswordChanged(tx, row, site);
        return true;
      });
      if (!done) throw new RejectedError(M.resetLinkInvalid);
      return { message: M.resetDone };
    },

    /**
     * POST /api/change_password: needs the old password. Every session of the user ends, this one
     * included, and the caller gets a new one (`token`): a session token that was stolen before
     * the change stops working with it.
     */
    async changePassword(
      currentUser: CurrentUser | null,
      body: ChangePasswordInput,
      context: Pick<SignInContext, "userAgent">,
    ) {
      const actor = requireActingUser(currentUser, body.user_id);
      refuseCommonPassword("new_password", body.new_password);
      const account = await repo.findLiveUserById(db, actor.id);
      if (!account || !(await verifyPassword(account.password_hash, body.old_password))) {
        throw new ValidationError({ old_password: M.oldPasswordWrong });
      }
      const passwordHash = await hashPassword(body.new_password);
      const site = await siteName();
      const session = await db.transaction().execute(async (tx) => {
        await repo.setPasswordHash(tx, actor.id, passwordHash, now());
        await deleteUserSessions(tx, actor.id);
        await repo.retireEmailTokens(tx, actor.id, "reset", now());
        await queuePasswordChanged(tx, account, site);
        return createSession(tx, actor.id, context.userAgent, now());
      });
      return { message: M.passwordChanged, token: session.token };
    },

    /**
     * What Edit profile's "Change email address" form asks (the current password, if the account
     * has one) and the address a link mailed earlier still waits for, if any.
     */
    async emailChangeForm(currentUser: CurrentUser | null) {
      const actor = requireUser(currentUser);
      const [account, pendingEmail] = await Promise.all([
        repo.findLiveUserById(db, actor.id),
        repo.findPendingEmailChange(db, actor.id, now()),
      ]);
      return { hasPassword: Boolean(account?.password_hash), pendingEmail: pendingEmail ?? null };
    },

    /**
     * POST /api/email_change: mails a single-use link to the new address, in the transaction that
     * stores its code; nothing else changes until it is opened (confirmEmailChange). An account
     * with a password proves itself with it; one that signs in with Google or Facebook alone has
     * none, and the link is its only proof. An address another live account holds is refused as
     * sign-up refuses it (sign-up already tells whether an address has an account).
     */
    async requestEmailChange(currentUser: CurrentUser | null, body: EmailChangeInput) {
      const actor = requireActingUser(currentUser, body.user_id);
      const account = await repo.findLiveUserById(db, actor.id);
      if (!account) throw new UnauthenticatedError();
      if (account.password_hash) {
        if (!body.password) throw new ValidationError({ password: M.emailChangePasswordRequired });
        if (!(await verifyPassword(account.password_hash, body.password))) {
          throw new ValidationError({ password: M.emailChangePasswordWrong });
        }
      }
      if (body.email.toLowerCase() === account.email.toLowerCase()) {
        throw new ValidationError({ email: M.emailChangeSame });
      }
      if (isDisposableEmail(body.email)) {
        throw new ValidationError({ email: M.emailChangeDisposable });
      }
      if (await repo.isEmailTakenByOther(db, body.email, account.id)) throw emailTaken();
      // The link would not be sent (core/mail/queue.ts): say so now, not by silence.
      if (await findUndeliverable(db, body.email)) {
        throw new ValidationError({ email: M.emailChangeUndeliverable });
      }
      const site = await siteName();
      await db.transaction().execute(async (tx) => {
        const code = await issueEmailCode(
          tx,
          account.id,
          "email_change",
          EMAIL_CHANGE_LINK_TTL_MS,
          body.email,
        );
        await queueMail(
          tx,
          body.email,
          emailChangeMail({
            siteName: site,
            name: account.name,
            newEmail: body.email,
            link: `${config.publicUrl}/confirm-email-change?token=${code}`,
            validHours: EMAIL_CHANGE_LINK_TTL_MS / HOUR_MS,
          }),
        );
      });
      return { message: emailChangeSentMessage(body.email) };
    },

    /** Whether a link to change an address can still be used (its page asks before its button). */
    async emailChangeLink(code: string): Promise<EmailChangeLinkState> {
      if (!code || code.length > 200) return { state: "invalid" };
      const row = await usableCode("email_change", code);
      if (!row || !row.new_email) return { state: "invalid" };
      if (row.used_at) return { state: "used" };
      return { state: "usable", newEmail: row.new_email };
    },

    /**
     * POST /api/confirm_email_change: the link mailed to the new address was opened, so the
     * address is the member's: it becomes the account's, confirmed. The code works once; the
     * member's sessions stay. Links mailed to the old address before (confirmation, reset) stop
     * working, and the old address is told, in the same transaction. An address another live
     * account took meanwhile is refused (409), and the link stays unused.
     */
    async confirmEmailChange({ token }: ConfirmEmailChangeInput) {
      const row = await usableCode("email_change", token);
      if (!row || !row.new_email) throw new RejectedError(M.emailChangeLinkInvalid);
      if (row.used_at) throw new RejectedError(M.emailChangeLinkUsed);
      const newEmail = row.new_email;
      const at = now();
      const site = await siteName();
      const taken = () => new ConflictError(M.emailChangeTaken);
      try {
        await db.transaction().execute(async (tx) => {
          if (await repo.isEmailTakenByOther(tx, newEmail, row.id)) throw taken();
          if (!(await repo.consumeEmailToken(tx, row.token_id, at))) {
            throw new RejectedError(M.emailChangeLinkUsed);
          }
          await repo.changeEmail(tx, row.id, newEmail, at);
          for (const purpose of ["confirm", "reset", "email_change"] as const) {
            await repo.retireEmailTokens(tx, row.id, purpose, at);
          }
          await queueMail(
            tx,
            row.email,
            emailChangedMail({
              siteName: site,
              name: row.name,
              newEmail,
              contactLink: `${config.publicUrl}/contact`,
            }),
          );
        });
      } catch (error) {
        // Another account took the address between the check and the write.
        if (isUniqueViolation(error)) throw taken();
        throw error;
      }
      return { message: M.emailChanged, email: newEmail };
    },

    /** POST /api/user_deleted: the signed-in user deletes their own account after signing in
     * again (the session must be fresh), and with it, if they choose, their posts and comments. */
    async deleteAccount(
      currentUser: CurrentUser | null,
      { user_id, remove_posts }: DeleteAccountInput,
    ) {
      const actor = requireActingUser(currentUser, user_id);
      const signedInAt = await repo.findSessionCreatedAt(db, actor.sessionId);
      if (!signedInAt || !isRecentSignIn(signedInAt, now())) {
        throw new ForbiddenError(M.deleteNeedsRecentSignin);
      }
      await deleteAccountData(actor.id, { removePosts: remove_posts });
      return { userId: actor.id, message: M.userDeleted };
    },

    /**
     * Sign-in with Google or Facebook (web flow and mobile tokens alike): the linked account; else
     * a signed-in user links the provider to their own account; else an address that already has
     * an account gets a mailed link to confirm (409, nothing linked yet); else (to sign in, not to
     * delete) a new account.
     */
    async signInWithProvider(
      identity: ProviderIdentity,
      intent: SocialIntent,
      context: SignInContext,
    ) {
      const linked = await accountForIdentity(identity);
      if (intent === "delete") {
        if (!linked) throw new NotFoundError(M.deleteSigninFailed);
        const session = await startSession(linked, context, "other");
        return { user: linked, token: session.token };
      }
      if (linked && (intent === "login" || linked.id === context.currentUser?.id)) {
        const session = await startSession(linked, context, "other");
        return { user: linked, token: session.token };
      }
      if (context.currentUser) {
        const userId = context.currentUser.id;
        const user = await db.transaction().execute(async (tx) => {
          await linkIdentity(tx, userId, identity);
          return repo.findLiveUserById(tx, userId);
        });
        if (!user) throw new NotFoundError(M.deleteSigninFailed);
        const session = await startSession(user, context, "other");
        return { user, token: session.token };
      }
      // Linking needs a signed-in user (or the mailed code, see confirmProviderLink).
      if (intent === "link" || !identity.email) throw new ConflictError(M.socialFailed);
      const sameEmail = await repo.findLiveUserByEmail(db, identity.email);
      if (sameEmail) {
        // An address the provider does not vouch for cannot even ask to join the account.
        if (!mayLinkByEmail(identity)) throw new ConflictError(M.socialFailed);
        const mailed = await offerLinkByMail(sameEmail, identity);
        throw new ConflictError(M.socialFailed, { confirmation_mail_sent: mailed });
      }
      let user: repo.AccountRow;
      try {
        // The provider's picture is copied once, never shown from its address (oauth.ts).
        user = await withProviderPicture(deps, identity, (picture) =>
          db.transaction().execute(async (tx) => {
            const created = await repo.insertUser(tx, {
              name: identity.name ?? identity.email!.split("@")[0]!,
              email: identity.email!,
              passwordHash: null,
              imageUrl: picture.url,
              emailVerifiedAt: identity.emailVerified ? now() : null,
            });
            if (picture.stored) await insertMediaRecord(tx, created.id, picture.stored);
            await repo.linkOAuthAccount(tx, created.id, identity.provider, identity.subject);
            return created;
          }),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(M.socialFailed);
        throw error;
      }
      if (!user.email_verified_at) await mailConfirmation(user);
      const session = await startSession(user, context, "other");
      return { user, token: session.token };
    },

    /** Whether a mailed provider link can still be used (before the browser goes to the provider). */
    async isProviderLinkUsable(provider: string, code: string): Promise<boolean> {
      if (!code || code.length > 200) return false;
      const request = await links.findUsableLinkRequest(db, hashToken(code), now());
      return request?.provider === provider;
    },

    /**
     * The mailed link came back with a provider identity: when it is the identity the link was
     * made for, it joins the account (once), the address counts as confirmed, and the person is
     * signed in.
     */
    async confirmProviderLink(code: string, identity: ProviderIdentity, context: SignInContext) {
      const at = now();
      const user = await db.transaction().execute(async (tx) => {
        const request = await links.findUsableLinkRequest(tx, hashToken(code), at, { lock: true });
        if (
          !request ||
          request.provider !== identity.provider ||
          request.provider_user_id !== identity.subject
        ) {
          throw new OAuthFailure("the link is unknown, used, expired or for another identity");
        }
        await linkIdentity(tx, request.user_id, identity);
        await links.markLinkRequestUsed(tx, request.id, at);
        // The link reached the mailbox, so the address is the person's.
        await repo.markEmailVerified(tx, request.user_id, at);
        return repo.findLiveUserById(tx, request.user_id);
      });
      if (!user) throw new NotFoundError(M.deleteSigninFailed);
      const session = await startSession(user, context, "other");
      return { user, token: session.token };
    },

    /** POST /api/social_signin (mobile apps): sign in with a provider token that verifies. */
    async socialSignin(input: SocialSigninInput, context: SignInContext) {
      const identity = await verifiedIdentity(input);
      return service.signInWithProvider(identity, "login", context);
    },

    /** POST /api/social_signin_deleted: deletes the account a verified provider token names. */
    async socialDelete(currentUser: CurrentUser | null, input: SocialSigninInput) {
      const identity = await verifiedIdentity(input);
      const account = await accountForIdentity(identity);
      if (!account) throw new NotFoundError(M.deleteSigninFailed);
      const actor = requireUser(currentUser);
      if (actor.id !== account.id)
        throw new ForbiddenError("You can only delete your own account.");
      const signedInAt = await repo.findSessionCreatedAt(db, actor.sessionId);
      if (!signedInAt || !isRecentSignIn(signedInAt, now())) {
        throw new ForbiddenError(M.deleteNeedsRecentSignin);
      }
      await deleteAccountData(account.id);
      return { userId: account.id, message: M.userDeleted };
    },
  };
  return service;
}

export type AccountsService = ReturnType<typeof createAccountsService>;
