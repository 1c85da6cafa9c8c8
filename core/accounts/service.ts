import { randomBytes } from "node:crypto";
import { OAuthFailure, createOAuthClients, type ProviderIdentity } from "../auth/oauth.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import { requireActingUser } from "../auth/policy.ts";
import {
  createSession,
  deleteSession,
  deleteUserSessions,
  hashToken,
  type CurrentUser,
} from "../auth/sessions.ts";
import type { Deps } from "../deps.ts";
import { AppError, NotFoundError, ValidationError } from "../http/errors.ts";
import { parseInput } from "../http/validate.ts";
import type { MailContent } from "../mail/templates.ts";
import { confirmEmailMail, passwordChangedMail, resetPasswordMail } from "../mail/templates.ts";
import { removeStoredImage } from "../media/images.ts";
import type { SettingsService } from "../settings/service.ts";
import { isCommonPassword } from "./common-passwords.ts";
import { isRecentSignIn, mayLinkByEmail } from "./policy.ts";
import * as repo from "./repository.ts";
import {
  ACCOUNT_MESSAGES as M,
  ChangePasswordSchema,
  ForgotPasswordSchema,
  ResendConfirmationSchema,
  ResetPasswordSchema,
  SigninSchema,
  SignupSchema,
  SocialSigninSchema,
  UserDeletedSchema,
  VerifySchema,
} from "./schema.ts";

const HOUR_MS = 60 * 60 * 1000;
/** How long mailed links work. */
export const CONFIRM_LINK_TTL_MS = 48 * HOUR_MS;
export const RESET_LINK_TTL_MS = 1 * HOUR_MS;

/** Where a request comes from, for the session it may start. */
export interface SignInContext {
  userAgent: string;
  /** The session the request already had: signing in replaces it (no session fixation). */
  previousSessionId?: number;
}

export type SocialIntent = "login" | "delete";

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

function emailTaken(): AppError {
  // The spec's register page reads message.email.
  return new AppError(422, M.emailTaken, {
    message: { email: M.emailTaken },
    errors: { email: M.emailTaken },
  });
}

/** Sign-up, confirmation, sign-in and out, password reset and change, deletion, social sign-in. */
export function createAccountsService(deps: Deps, settings: Pick<SettingsService, "get">) {
  const { db, config, mailer, log, now, mediaDir } = deps;
  const oauth = createOAuthClients(config);

  async function siteName(): Promise<string> {
    return (await settings.get()).websiteName;
  }

  /** Sends one mail; false (and a log line) when the mail server refused it. */
  async function send(to: string, content: MailContent): Promise<boolean> {
    try {
      await mailer.send({ to, ...content });
      return true;
    } catch (error) {
      log.error({ msg: "mail could not be sent", to, subject: content.subject, err: error });
      return false;
    }
  }

  function refuseCommonPassword(field: string, password: string) {
    if (isCommonPassword(password)) throw new ValidationError({ [field]: M.passwordCommon });
  }

  async function issueEmailCode(
    userId: number,
    purpose: repo.EmailTokenPurpose,
    ttlMs: number,
  ): Promise<string> {
    const code = newEmailCode();
    const at = now();
    await db.transaction().execute(async (tx) => {
      // Only the newest reset link works; older confirmation links stay valid until they expire.
      if (purpose === "reset") await repo.retireEmailTokens(tx, userId, "reset", at);
      await repo.insertEmailToken(tx, {
        userId,
        purpose,
        tokenHash: hashToken(code),
        expiresAt: new Date(at.getTime() + ttlMs),
      });
    });
    return code;
  }

  async function mailConfirmation(user: { id: number; name: string; email: string }) {
    const code = await issueEmailCode(user.id, "confirm", CONFIRM_LINK_TTL_MS);
    const link = `${config.publicUrl}/confirm/${code}`;
    return send(
      user.email,
      confirmEmailMail({
        siteName: await siteName(),
        name: user.name,
        link,
        validHours: CONFIRM_LINK_TTL_MS / HOUR_MS,
      }),
    );
  }

  async function mailPasswordChanged(user: { name: string; email: string }) {
    await send(
      user.email,
      passwordChangedMail({
        siteName: await siteName(),
        name: user.name,
        forgotPasswordLink: `${config.publicUrl}/forgotpassword`,
      }),
    );
  }

  async function startSession(userId: number, context: SignInContext) {
    return db.transaction().execute(async (tx) => {
      if (context.previousSessionId !== undefined)
        await deleteSession(tx, context.previousSessionId);
      return createSession(tx, userId, context.userAgent, now());
    });
  }

  /** A code from a mailed link that can still be used, or null. */
  async function usableCode(purpose: repo.EmailTokenPurpose, code: string) {
    const row = await repo.findEmailToken(db, purpose, hashToken(code));
    if (!row || row.expires_at.getTime() <= now().getTime()) return null;
    return row;
  }

  /** Removes a person's data (docs/decisions/0014-account-deletion.md). */
  async function deleteAccountData(userId: number) {
    const at = now();
    const tombstone = `deleted-user-${userId}-${randomBytes(6).toString("hex")}`;
    const { avatarUrl } = await db
      .transaction()
      .execute((tx) => repo.anonymiseUser(tx, userId, at, tombstone));
    if (avatarUrl?.startsWith("/media/")) {
      const relative = avatarUrl.slice("/media/".length);
      if (await repo.deleteMediaRecord(db, relative, userId)) {
        await removeStoredImage(mediaDir, relative).catch((error: unknown) =>
          log.warn(`could not remove the avatar of deleted user ${userId}: ${String(error)}`),
        );
      }
    }
  }

  /**
   * The account behind a provider identity: the one linked to it, else a live account with the
   * same address when the provider vouches for that address (then linked). None: null.
   */
  async function accountForIdentity(identity: ProviderIdentity) {
    return db.transaction().execute(async (tx) => {
      const linked = await repo.findUserByOAuthAccount(tx, identity.provider, identity.subject);
      if (linked) return { account: linked, conflict: false };
      if (!identity.email) return { account: null, conflict: false };
      const sameEmail = await repo.findLiveUserByEmail(tx, identity.email);
      if (!sameEmail) return { account: null, conflict: false };
      if (!mayLinkByEmail(identity)) return { account: null, conflict: true };
      await repo.linkOAuthAccount(tx, sameEmail.id, identity.provider, identity.subject);
      await repo.markEmailVerified(tx, sameEmail.id, now());
      return { account: sameEmail, conflict: false };
    });
  }

  async function verifiedIdentity(input: unknown): Promise<ProviderIdentity> {
    const body = parseInput(SocialSigninSchema, input);
    if (!oauth.isAvailable(body.provider)) throw new AppError(401, M.socialFailed);
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
      throw new AppError(401, M.socialFailed);
    }
  }

  const service = {
    oauth,

    /** POST /api/signup: a new, unconfirmed account and its confirmation mail. */
    async signup(input: unknown) {
      const { name, email, password } = parseInput(SignupSchema, input);
      refuseCommonPassword("password", password);
      if (await repo.findLiveUserByEmail(db, email)) throw emailTaken();
      const passwordHash = await hashPassword(password);
      let user: repo.AccountRow;
      try {
        user = await repo.insertUser(db, { name, email, passwordHash });
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
      const mailed = await mailConfirmation(user);
      return { user, mailed };
    },

    /** POST /api/resend_confirmation: the same answer whether or not the address is known. */
    async resendConfirmation(input: unknown) {
      const { email } = parseInput(ResendConfirmationSchema, input);
      const user = await repo.findLiveUserByEmail(db, email);
      if (user && !user.email_verified_at) await mailConfirmation(user);
      return { message: M.confirmationResent };
    },

    /** POST /api/verify: uses a confirmation code once. */
    async verifyEmail(input: unknown) {
      const { confirmation_code } = parseInput(VerifySchema, input);
      const row = await repo.findEmailToken(db, "confirm", hashToken(confirmation_code));
      if (row?.used_at) throw new AppError(400, M.confirmationUsed);
      if (!row || row.expires_at.getTime() <= now().getTime()) {
        throw new AppError(400, M.confirmationInvalid);
      }
      const at = now();
      const confirmed = await db.transaction().execute(async (tx) => {
        if (!(await repo.consumeEmailToken(tx, row.token_id, at))) return false;
        await repo.markEmailVerified(tx, row.id, at);
        return true;
      });
      if (!confirmed) throw new AppError(400, M.confirmationUsed);
      return {
        user: { ...row, email_verified_at: row.email_verified_at ?? at },
        message: M.emailConfirmed,
      };
    },

    /** POST /api/signin: one generic failure, whether the address is unknown or the password wrong. */
    async signin(input: unknown, context: SignInContext) {
      const { email, password } = parseInput(SigninSchema, input);
      const user = await repo.findLiveUserByEmail(db, email);
      if (!user?.password_hash) {
        decoyHash ??= hashPassword(newEmailCode());
        await verifyPassword(await decoyHash, password);
        throw new AppError(401, M.signinFailed);
      }
      if (!(await verifyPassword(user.password_hash, password))) {
        throw new AppError(401, M.signinFailed);
      }
      const session = await startSession(user.id, context);
      return { user, token: session.token, message: M.signinSuccess };
    },

    /** POST /api/logout: ends this session (the cookie is cleared by the caller). */
    async logout(user: CurrentUser | null) {
      if (user) await deleteSession(db, user.sessionId);
      return { message: M.loggedOut };
    },

    /** POST /api/forgot_password: mails a single-use reset link (no password is ever mailed). */
    async forgotPassword(input: unknown) {
      const { email } = parseInput(ForgotPasswordSchema, input);
      const user = await repo.findLiveUserByEmail(db, email);
      if (!user) throw new AppError(404, M.forgotNotFound, { status: "false" });
      const code = await issueEmailCode(user.id, "reset", RESET_LINK_TTL_MS);
      const sent = await send(
        user.email,
        resetPasswordMail({
          siteName: await siteName(),
          name: user.name,
          link: `${config.publicUrl}/reset-password/${code}`,
          validMinutes: RESET_LINK_TTL_MS / 60_000,
        }),
      );
      if (!sent) {
        throw new AppError(503, "We could not send the email right now. Please try again later.");
      }
      return { message: M.forgotSent };
    },

    /** Whether a reset link can still be used (the reset page asks before showing its form). */
    async isResetLinkUsable(code: string): Promise<boolean> {
      if (!code || code.length > 200) return false;
      const row = await usableCode("reset", code);
      return row !== null && row.used_at === null;
    },

    /** POST /api/reset_password: a new password from a mailed link; every session ends. */
    async resetPassword(input: unknown) {
      const { token, password } = parseInput(ResetPasswordSchema, input);
      refuseCommonPassword("password", password);
      const row = await usableCode("reset", token);
      if (!row || row.used_at) throw new AppError(400, M.resetLinkInvalid);
      const passwordHash = await hashPassword(password);
      const at = now();
      const done = await db.transaction().execute(async (tx) => {
        if (!(await repo.consumeEmailToken(tx, row.token_id, at))) return false;
        await repo.setPasswordHash(tx, row.id, passwordHash, at);
        // The link reached the mailbox, so the address is the person's.
        await repo.markEmailVerified(tx, row.id, at);
        await repo.retireEmailTokens(tx, row.id, "reset", at);
        await deleteUserSessions(tx, row.id);
        return true;
      });
      if (!done) throw new AppError(400, M.resetLinkInvalid);
      await mailPasswordChanged(row);
      return { message: M.resetDone };
    },

    /** POST /api/change_password: needs the old password; the user's other sessions end. */
    async changePassword(currentUser: CurrentUser | null, input: unknown) {
      const body = parseInput(ChangePasswordSchema, input);
      const actor = requireActingUser(currentUser, body.user_id);
      refuseCommonPassword("new_password", body.new_password);
      const account = await repo.findLiveUserById(db, actor.id);
      if (!account || !(await verifyPassword(account.password_hash, body.old_password))) {
        throw new ValidationError({ old_password: M.oldPasswordWrong });
      }
      const passwordHash = await hashPassword(body.new_password);
      await db.transaction().execute(async (tx) => {
        await repo.setPasswordHash(tx, actor.id, passwordHash, now());
        await deleteUserSessions(tx, actor.id, actor.sessionId);
        await repo.retireEmailTokens(tx, actor.id, "reset", now());
      });
      await mailPasswordChanged(account);
      return { message: M.passwordChanged };
    },

    /** POST /api/user_deleted: the signed-in user deletes their own account after signing in
     * again (the session must be fresh). */
    async deleteAccount(currentUser: CurrentUser | null, input: unknown) {
      const { user_id } = parseInput(UserDeletedSchema, input);
      const actor = requireActingUser(currentUser, user_id);
      const signedInAt = await repo.findSessionCreatedAt(db, actor.sessionId);
      if (!signedInAt || !isRecentSignIn(signedInAt, now())) {
        throw new AppError(403, M.deleteNeedsRecentSignin);
      }
      await deleteAccountData(actor.id);
      return { userId: actor.id, message: M.userDeleted };
    },

    /**
     * Web sign-in with Google or Facebook: the linked account, or one linked now by a verified
     * address, or (to sign in, not to delete) a new account.
     */
    async signInWithProvider(
      identity: ProviderIdentity,
      intent: SocialIntent,
      context: SignInContext,
    ) {
      const { account, conflict } = await accountForIdentity(identity);
      let user = account;
      if (!user) {
        if (intent === "delete") throw new NotFoundError(M.deleteSigninFailed);
        // An address the provider does not vouch for cannot take over or create a second account.
        if (conflict || !identity.email) throw new AppError(409, M.socialFailed);
        try {
          user = await db.transaction().execute(async (tx) => {
            const created = await repo.insertUser(tx, {
              name: identity.name ?? identity.email!.split("@")[0]!,
              email: identity.email!,
              passwordHash: null,
              imageUrl: identity.picture,
              emailVerifiedAt: identity.emailVerified ? now() : null,
            });
            await repo.linkOAuthAccount(tx, created.id, identity.provider, identity.subject);
            return created;
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw new AppError(409, M.socialFailed);
          throw error;
        }
        if (!user.email_verified_at) await mailConfirmation(user);
      }
      const session = await startSession(user.id, context);
      return { user, token: session.token };
    },

    /** POST /api/social_signin (mobile apps): sign in with a provider token that verifies. */
    async socialSignin(input: unknown, context: SignInContext) {
      const identity = await verifiedIdentity(input);
      return service.signInWithProvider(identity, "login", context);
    },

    /** POST /api/social_signin_deleted: deletes the account a verified provider token names. */
    async socialDelete(input: unknown) {
      const identity = await verifiedIdentity(input);
      const { account } = await accountForIdentity(identity);
      if (!account) throw new NotFoundError(M.deleteSigninFailed);
      await deleteAccountData(account.id);
      return { userId: account.id, message: M.userDeleted };
    },
  };
  return service;
}

export type AccountsService = ReturnType<typeof createAccountsService>;
