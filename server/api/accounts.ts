import type { FastifyRequest } from "fastify";
import { presentAccount } from "../../core/people/accounts/presenter.ts";
import {
  ChangePasswordSchema,
  ConfirmEmailChangeSchema,
  DeleteAccountBody,
  EmailChangeSchema,
  ForgotPasswordSchema,
  ResendConfirmationSchema,
  ResetPasswordSchema,
  SigninRequestSchema,
  SignupSchema,
  SocialSigninSchema,
  VerifySchema,
} from "../../core/people/accounts/schema.ts";
import type { SignInContext } from "../../core/people/accounts/service.ts";
import { safeReturnPath } from "../../core/auth/return-path.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import { SPEC_FAILURES } from "./errors.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  AccountDeletedResponse,
  AccountResponse,
  ChangePasswordResponse,
  EmailChangedResponse,
  SigninResponse,
  SignupResponse,
  SocialSigninResponse,
} from "../../core/people/accounts/responses.ts";
import { MessageResponse } from "../../core/responses.ts";

function signInContext(request: FastifyRequest): SignInContext {
  return {
    userAgent: String(request.headers["user-agent"] ?? ""),
    previousSessionId: request.user?.sessionId,
    currentUser: request.user,
  };
}

/** Accounts: the spec's sign-up, sign-in, password and deletion calls, plus logout and resend. */
export const accountsApi: ApiModule = async (app, { services }) => {
  const accounts = services.accounts;

  apiRoute(app, {
    method: "POST",
    url: "/signup",
    tag: "Accounts",
    summary: "Register (201); a confirmation link is mailed. Errors read message.email",
    body: SignupSchema,
    response: SignupResponse,
    successStatus: 201,
    failure: SPEC_FAILURES.register,
    rateLimit: RATE_LIMITS.signup,
    handler: async ({ input }) => {
      const { user, mailed } = await accounts.signup(input);
      return {
        status: "true",
        message: "Registered Successfully !",
        response: presentAccount(user),
        confirmation_mail_sent: mailed,
      };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/verify",
    tag: "Accounts",
    summary: "Confirm an email address with the mailed code",
    body: VerifySchema,
    response: AccountResponse,
    handler: async ({ input }) => {
      const { user, message } = await accounts.verifyEmail(input);
      return { status: "true", message, response: presentAccount(user) };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/resend_confirmation",
    tag: "Accounts",
    summary: "Mail a new confirmation link (same answer for any address)",
    body: ResendConfirmationSchema,
    response: MessageResponse,
    rateLimit: RATE_LIMITS.resendConfirmation,
    handler: async ({ input }) => ({
      status: "true",
      ...(await accounts.resendConfirmation(input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/signin",
    tag: "Accounts",
    summary:
      "Sign in with email and password; sets the session cookie. status 'False' on failure. An optional next (return path) is answered back checked: a path on this site, else /",
    body: SigninRequestSchema,
    response: SigninResponse,
    failure: SPEC_FAILURES.signin,
    rateLimit: RATE_LIMITS.signin,
    handler: async ({ input, request, reply }) => {
      const { next, ...credentials } = input;
      const { user, token, message } = await accounts.signin(credentials, signInContext(request));
      reply.setSessionCookie(token);
      return {
        status: "true",
        message,
        response: presentAccount(user, token),
        ...(next === undefined ? {} : { next: safeReturnPath(next) }),
      };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/logout",
    tag: "Accounts",
    summary: "End this session and clear its cookie",
    response: MessageResponse,
    handler: async ({ request, reply }) => {
      const { message } = await accounts.logout(request.user);
      reply.clearSessionCookie();
      return { status: "true", message };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/forgot_password",
    tag: "Accounts",
    summary: "Mail a single-use password reset link. status 'false' for an unknown address",
    body: ForgotPasswordSchema,
    response: MessageResponse,
    failure: SPEC_FAILURES.notFoundFalse,
    rateLimit: RATE_LIMITS.forgotPassword,
    handler: async ({ input }) => ({
      status: "true",
      ...(await accounts.forgotPassword(input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/reset_password",
    tag: "Accounts",
    summary: "Choose a new password with a mailed reset link; ends every session",
    body: ResetPasswordSchema,
    response: MessageResponse,
    rateLimit: RATE_LIMITS.resetPassword,
    handler: async ({ input, reply }) => {
      const { message } = await accounts.resetPassword(input);
      reply.clearSessionCookie();
      return { status: "true", message };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/change_password",
    tag: "Accounts",
    summary:
      "Change the password (old password needed); ends every session of the user and starts a " +
      "new one: a new session cookie, or for a bearer-token caller the new token in `token`",
    body: ChangePasswordSchema,
    response: ChangePasswordResponse,
    auth: true,
    rateLimit: RATE_LIMITS.changePassword,
    handler: async ({ input, request, reply }) => {
      const { message, token } = await accounts.changePassword(request.user, input, {
        userAgent: String(request.headers["user-agent"] ?? ""),
      });
      // A browser's cookie (and the XSRF token bound to it) is replaced; an app gets its new token.
      if (request.viaBearer) return { status: "true", message, token };
      reply.setSessionCookie(token);
      return { status: "true", message };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/email_change",
    tag: "Accounts",
    summary:
      "Ask to change the signed-in user's email address: a single-use link (24 hours) is mailed " +
      "to the new address, which becomes the account's when the link is used. password: the " +
      "current one (left out by an account that signs in with Google or Facebook alone)",
    body: EmailChangeSchema,
    response: MessageResponse,
    auth: true,
    rateLimit: RATE_LIMITS.emailChange,
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await accounts.requestEmailChange(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/confirm_email_change",
    tag: "Accounts",
    summary:
      "Use the link mailed to the new address: it becomes the account's address, confirmed " +
      "(no session needed; the member's sessions stay)",
    body: ConfirmEmailChangeSchema,
    response: EmailChangedResponse,
    rateLimit: RATE_LIMITS.confirmEmailChange,
    handler: async ({ input }) => ({
      status: "true",
      ...(await accounts.confirmEmailChange(input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/user_deleted",
    tag: "Accounts",
    summary:
      "Delete the signed-in user's account (needs a sign-in within 10 minutes); remove_posts: their posts and comments go too",
    body: DeleteAccountBody,
    response: AccountDeletedResponse,
    auth: true,
    handler: async ({ input, request, reply }) => {
      const { userId, message } = await accounts.deleteAccount(request.user, input);
      reply.clearSessionCookie();
      return { status: "true", message, data: { response: { user_id: userId } } };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/social_signin",
    tag: "Accounts",
    summary: "Sign in with a Google or Facebook token (id_token or access_token) that verifies",
    body: SocialSigninSchema,
    response: SocialSigninResponse,
    rateLimit: RATE_LIMITS.social,
    handler: async ({ input, request, reply }) => {
      const { user, token } = await accounts.socialSignin(input, signInContext(request));
      reply.setSessionCookie(token);
      const account = presentAccount(user, token);
      return { status: "true", message: "Successfully Login", data: account, response: account };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/social_signin_deleted",
    tag: "Accounts",
    summary:
      "Delete the account a verified Google or Facebook token is linked to (needs that account's " +
      "session, signed in within 10 minutes)",
    body: SocialSigninSchema,
    response: AccountDeletedResponse,
    rateLimit: RATE_LIMITS.social,
    handler: async ({ input, request, reply }) => {
      const { userId, message } = await accounts.socialDelete(request.user, input);
      if (request.user?.id === userId) reply.clearSessionCookie();
      return { status: "true", message, data: { response: { user_id: userId } } };
    },
  });
};
