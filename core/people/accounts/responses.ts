import { z } from "zod";
import { message } from "../../responses.ts";

/** `/change_password`: the spec's message, and the new session token for a bearer-token caller. */
export const ChangePasswordResponse = z.strictObject({
  ...message,
  token: z
    .string()
    .optional()
    .describe("the new session token (bearer-token callers; browsers get a new cookie)"),
});

/** `/confirm_email_change`: the message, and the account's address now. */
export const EmailChangedResponse = z.strictObject({
  ...message,
  email: z.string().describe("the account's new email address, confirmed"),
});

const Account = z.strictObject({
  user_id: z.number(),
  name: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  token: z.string().optional().describe("the session token, for Authorization: Bearer"),
});

export const SignupResponse = z.strictObject({
  ...message,
  response: Account,
  confirmation_mail_sent: z.boolean(),
});

export const AccountResponse = z.strictObject({ ...message, response: Account });

/** The sign-in answer; `next` (the checked return path) only when the call sent one. */
export const SigninResponse = AccountResponse.extend({
  next: z.string().optional().describe("The return path, checked: a path on this site, else /"),
});

export const SocialSigninResponse = z.strictObject({
  ...message,
  data: Account,
  response: Account,
});

export const AccountDeletedResponse = z.strictObject({
  ...message,
  data: z.strictObject({ response: z.strictObject({ user_id: z.number() }) }),
});
