import { z } from "zod";
import { text } from "../../validation.ts";

/**
 * Input schemas of every account form and call. The browser forms and the JSON API validate with
 * the same schema, so both show the spec's messages (section 5) word for word.
 */

export const ACCOUNT_MESSAGES = {
  nameRequired: "Name is required !",
  nameTooShort: "Name should be more than 2 character!",
  nameTooLong: "Name should be at most 100 characters.",
  emailRequired: "Email is required !",
  emailInvalid: "Please enter a valid email address.",
  passwordRequired: "Password is required !",
  passwordRule:
    "Password should at least one digit,one uppercase letter,one lowercase letter,one special character,and password between 4-32 characters in length.",
  passwordCommon:
    "This password is one of the most commonly used passwords and is easy to guess. Please choose another.",
  confirmRequired: "Confirm Password is required !",
  confirmMismatch: "Password and Confirm password should be same.",
  oldPasswordRequired: "Old Password is required !",
  newPasswordRequired: "New Password is required !",
  newConfirmMismatch: "New and Confirm Password should be same. ",
  oldPasswordWrong: "Your old password is not correct.",
  emailTaken: "The email has already been taken.",
  registered: "Registered Successfully !",
  signinSuccess: "Successfully Login",
  signinFailed: "These credentials do not match our records.",
  /** Not the spec's: sign-in to one address is slowed, then locked, after repeated failures. */
  signinLocked:
    "Too many failed sign-in attempts for this account. Please try again later, or reset your password.",
  loggedOut: "You have been logged out.",
  forgotSent: "Password sent successfully to this email Id.",
  forgotNotFound: "Not Email id Found.",
  /** How the forgot-password page shows the server's forgotNotFound (the spec's error list). */
  forgotNotFoundShown: "Email Id not found.",
  resetDone: "Your password has been reset. Please log in with your new password.",
  resetLinkInvalid: "This password reset link is invalid or has expired. Please ask for a new one.",
  passwordChanged: "Your password has been changed.",
  confirmationCodeRequired: "The confirmation code is missing.",
  emailConfirmed: "Your email address has been confirmed. Thank you!",
  confirmationInvalid:
    "This confirmation link is invalid or has expired. Please ask for a new one.",
  confirmationUsed:
    "This confirmation link has already been used. Your email address is confirmed: you can log in.",
  confirmationResent:
    "If an account with this email address is waiting for confirmation, we have sent it a new link.",
  deleteSigninFailed: "No Data Found !",
  userDeleted: "User deleted successfully.",
  deleteConfirmQuestion: "Are you want to delete account ?",
  removePostsChoice: "remove_posts must be true or false.",
  removePostsLabel: "Also delete my deals, discussions and comments",
  deleteNeedsRecentSignin: "For your safety, please sign in again before deleting your account.",
  socialFailed: "Something went wrong in social login. please try again later.",
  socialTokenRequired: "An id_token or access_token from the provider is required.",
  /** Not the spec's: sign-up refuses addresses at disposable-mail domains (record 0085). */
  disposableEmail:
    "Please use a permanent email address; disposable addresses can't be used to sign up.",
  /** Not the spec's: a register form left open longer than a day (record 0085). */
  signupFormExpired: "This form has expired. Please reload the page and fill it in again.",
  /** Not the spec's: a member changes their own address (docs/decisions/0083, amended). */
  emailChangeSame: "This is already your email address.",
  emailChangePasswordRequired: "Please enter your current password.",
  emailChangePasswordWrong: "Your password is not correct.",
  emailChangeLinkInvalid:
    "This link to change your email address is invalid or has expired. Please ask for a new one.",
  emailChangeLinkUsed: "This link has already been used: your email address was changed with it.",
  emailChangeTaken:
    "Your email address was not changed: another account now uses this address. Please ask for a new link with another address.",
  emailChanged: "Your email address has been changed.",
  /** A member's new address is held to sign-up's rule (record 0085). */
  emailChangeDisposable:
    "Please use a permanent email address; disposable addresses can't be used for an account.",
  emailChangeUndeliverable:
    "Mail to this address could not be delivered before. Please check it, or use another address.",
} as const;

const M = ACCOUNT_MESSAGES;

/** 4-32 characters with at least one digit, one upper-case letter, one lower-case letter and one
 * other (special) character. */
export function meetsPasswordRule(password: string): boolean {
  const length = [...password].length;
  return (
    length >= 4 &&
    length <= 32 &&
    /\d/.test(password) &&
    /[A-Z]/.test(password) &&
    /[a-z]/.test(password) &&
    /[^A-Za-z0-9\s]/.test(password)
  );
}

/**
 * A text field that may arrive missing or null, read as "" so that the spec's "… is required !"
 * shows. Anything else that is not text (a number, a list, an object) is refused by text(), never
 * converted: `String({ toString: 1 })` throws (tests/integration/text-fields.test.ts).
 */
const looseText = () =>
  z.preprocess((value) => (value === null || value === undefined ? "" : value), text());

const requiredText = (message: string) => looseText().pipe(z.string().min(1, message));

const email = () =>
  looseText()
    .transform((value) => value.trim())
    .pipe(
      z.string().min(1, M.emailRequired).max(254, M.emailInvalid).pipe(z.email(M.emailInvalid)),
    );

const name = () =>
  looseText()
    .transform((value) => value.trim())
    .pipe(z.string().min(1, M.nameRequired).min(2, M.nameTooShort).max(100, M.nameTooLong));

const newPassword = (requiredMessage: string) =>
  requiredText(requiredMessage).refine(meetsPasswordRule, M.passwordRule);

/** An optional `user_id` as the spec's payloads carry it; checked against the session, never trusted. */
export const claimedUserId = z.union([text(), z.number()]).nullish();

export type ClaimedUserId = z.output<typeof claimedUserId>;

/**
 * `{ user_id }`: the payload of every call that names only the acting user (`POST /api/home`,
 * `/api/user_deleted`, `/api/subscriptions_setup_intent`, `/api/create-intent`).
 */
export const ActingUserBody = z.object({ user_id: claimedUserId });

export type ActingUserInput = z.output<typeof ActingUserBody>;

/**
 * `POST /api/user_deleted` {user_id, remove_posts?}: the spec's `{user_id}`, and beside it whether
 * the member's deals, discussions and comments go too (a JSON boolean, or the delete page's
 * checkbox: "on" when ticked, absent when not). Left out: they stay, as by "Deleted user".
 */
export const DeleteAccountBody = ActingUserBody.extend({
  remove_posts: z.preprocess(
    (value) =>
      value === "true" || value === "on"
        ? true
        : value === "false" || value === "" || value === null || value === undefined
          ? false
          : value,
    z.boolean({ error: M.removePostsChoice }),
  ),
});

export type DeleteAccountInput = z.output<typeof DeleteAccountBody>;

/**
 * The register form's honeypot, `website` (record 0085): a field people never see. True when it
 * came with anything in it, of any type: only a script fills it. Empty or left out (the spec's
 * clients send none) is false.
 */
const honeypot = () =>
  z
    .preprocess((value) => value !== undefined && value !== null && value !== "", z.boolean())
    .describe("Leave out, or send empty: a register form's hidden field that people never see");

/**
 * The register form's signed render time, `form_stamp` (core/people/accounts/signup-form-stamp.ts),
 * or null when none came (the spec's clients send none). Text like every text field (record 0021).
 */
const formStamp = () =>
  z
    .preprocess(
      (value) => (value === null || value === "" ? undefined : value),
      text().optional().describe("The register form's signed render time, as the page gave it"),
    )
    .transform((value) => value ?? null);

/**
 * POST /api/signup {name, email, password}, and beside them the register form's defences
 * (record 0085), both optional: `website`, the honeypot, and `form_stamp`, its signed render time.
 */
export const SignupSchema = z.object({
  name: name(),
  email: email(),
  password: newPassword(M.passwordRequired),
  website: honeypot(),
  form_stamp: formStamp(),
});

/** The Register form: the sign-up fields plus the confirmation the browser checks. */
export const RegisterFormSchema = SignupSchema.extend({
  confirm_password: requiredText(M.confirmRequired),
}).refine((form) => form.confirm_password === form.password, {
  message: M.confirmMismatch,
  path: ["confirm_password"],
});

/** POST /api/signin {email, password}: only "required" here, so a wrong format reads as a
 * failed sign-in rather than hinting at which accounts exist. */
export const SigninSchema = z.object({
  email: requiredText(M.emailRequired).transform((value) => value.trim()),
  password: requiredText(M.passwordRequired),
});

/**
 * POST /api/signin as the site's own login page sends it: the spec's fields, plus the page's
 * return path (`next`), answered back checked by core/auth/return-path.ts (record 0035).
 */
export const SigninRequestSchema = SigninSchema.extend({
  next: text({ error: "next must be a path on this site." }).optional(),
});

/** POST /api/forgot_password {email}. */
export const ForgotPasswordSchema = z.object({ email: email() });

/** POST /api/resend_confirmation {email}. */
export const ResendConfirmationSchema = z.object({ email: email() });

/** POST /api/verify {confirmation_code}. */
export const VerifySchema = z.object({
  confirmation_code: requiredText(M.confirmationCodeRequired).transform((value) => value.trim()),
});

/** POST /api/reset_password {token, password, password_confirmation}. */
export const ResetPasswordSchema = z
  .object({
    token: requiredText(M.resetLinkInvalid),
    password: newPassword(M.passwordRequired),
    password_confirmation: requiredText(M.confirmRequired),
  })
  .refine((form) => form.password_confirmation === form.password, {
    message: M.confirmMismatch,
    path: ["password_confirmation"],
  });

/** POST /api/change_password {old_password, new_password, new_password_confirmation, user_id}. */
export const ChangePasswordSchema = z
  .object({
    old_password: requiredText(M.oldPasswordRequired),
    new_password: newPassword(M.newPasswordRequired),
    new_password_confirmation: requiredText(M.confirmRequired),
    user_id: claimedUserId,
  })
  .refine((form) => form.new_password_confirmation === form.new_password, {
    message: M.newConfirmMismatch,
    path: ["new_password_confirmation"],
  });

/**
 * POST /api/email_change {email, password?}: the new address and, for an account with a password,
 * the current one (an account that signs in with Google or Facebook alone has none: the link
 * mailed to the new address is its proof). The session's user changes theirs: a `user_id`, as
 * the spec's payloads carry one, is only checked against it.
 */
export const EmailChangeSchema = z.object({
  email: email(),
  password: looseText(),
  user_id: claimedUserId,
});

/** The message of a new address's link just mailed. */
export function emailChangeSentMessage(newEmail: string): string {
  return `We have sent a link to ${newEmail}. Your email address changes when you open it.`;
}

/** POST /api/confirm_email_change {token}: the code of the link mailed to the new address. */
export const ConfirmEmailChangeSchema = z.object({
  token: requiredText(M.emailChangeLinkInvalid).transform((value) => value.trim()),
});

export const OAUTH_PROVIDERS = ["google", "facebook"] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

/**
 * POST /api/social_signin and /api/social_signin_deleted {provider, provider_id, name, email,
 * profile_img}: the spec's claims are only hints; the provider's token (`id_token`, or an
 * `access_token` checked at the provider's userinfo endpoint) is what proves who is asking.
 */
export const SocialSigninSchema = z
  .object({
    provider: z.enum(OAUTH_PROVIDERS, { message: "provider must be google or facebook." }),
    provider_id: looseText(),
    name: looseText(),
    email: looseText(),
    profile_img: looseText(),
    id_token: looseText(),
    access_token: looseText(),
  })
  .refine((body) => body.id_token !== "" || body.access_token !== "", {
    message: M.socialTokenRequired,
    path: ["id_token"],
  });

export type SignupInput = z.output<typeof SignupSchema>;
export type SigninInput = z.output<typeof SigninSchema>;
export type ForgotPasswordInput = z.output<typeof ForgotPasswordSchema>;
export type ResendConfirmationInput = z.output<typeof ResendConfirmationSchema>;
export type VerifyInput = z.output<typeof VerifySchema>;
export type ResetPasswordInput = z.output<typeof ResetPasswordSchema>;
export type ChangePasswordInput = z.output<typeof ChangePasswordSchema>;
export type SocialSigninInput = z.output<typeof SocialSigninSchema>;
export type EmailChangeInput = z.output<typeof EmailChangeSchema>;
export type ConfirmEmailChangeInput = z.output<typeof ConfirmEmailChangeSchema>;
