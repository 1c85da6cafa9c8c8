import type { FastifyRequest } from "fastify";
import { presentAccount } from "../../core/accounts/presenter.ts";
import {
  ChangePasswordSchema,
  ForgotPasswordSchema,
  ResendConfirmationSchema,
  ResetPasswordSchema,
  SigninSchema,
  SignupSchema,
  SocialSigninSchema,
  UserDeletedSchema,
  VerifySchema,
} from "../../core/accounts/schema.ts";
import type { SignInContext } from "../../core/accounts/service.ts";
import { AppError } from "../../core/http/errors.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

function signInContext(request: FastifyRequest): SignInContext {
  return {
    userAgent: String(request.headers["user-agent"] ?? ""),
    previousSessionId: request.user?.sessionId,
    currentUser: request.user,
  };
}

/** Runs a call whose failures the spec reads with a status value of its own (sign-in: 'False'). */
async function withFailureStatus<T>(status: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) {
      throw new AppError(error.statusCode, error.message, { ...error.body, status });
    }
    throw error;
  }
}

/** Accounts: the spec's sign-up, sign-in, password and deletion calls, plus logout and resend. */
export const authApi: ApiModule = (app, services) => {
  const accounts = services.accounts;

  apiRoute(app, {
    method: "POST",
    url: "/signup",
    tag: "Accounts",
    summary: "Register (201); a confirmation link is mailed. Errors read message.email",
    body: SignupSchema,
    rateLimit: RATE_LIMITS.signup,
    handler: async (request, reply) => {
      try {
        const { user, mailed } = await accounts.signup(request.body);
        return reply.code(201).send({
          status: "true",
          message: "Registered Successfully !",
          response: presentAccount(user),
          confirmation_mail_sent: mailed,
        });
      } catch (error) {
        // The register page reads its errors as message.<field>.
        if (error instanceof AppError && error.statusCode === 422 && "errors" in error.body) {
          throw new AppError(422, error.message, { ...error.body, message: error.body.errors });
        }
        throw error;
      }
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/verify",
    tag: "Accounts",
    summary: "Confirm an email address with the mailed code",
    body: VerifySchema,
    handler: async (request) => {
      const { user, message } = await accounts.verifyEmail(request.body);
      return { status: "true", message, response: presentAccount(user) };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/resend_confirmation",
    tag: "Accounts",
    summary: "Mail a new confirmation link (same answer for any address)",
    body: ResendConfirmationSchema,
    rateLimit: RATE_LIMITS.forgotPassword,
    handler: async (request) => ({
      status: "true",
      ...(await accounts.resendConfirmation(request.body)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/signin",
    tag: "Accounts",
    summary: "Sign in with email and password; sets the session cookie. status 'False' on failure",
    body: SigninSchema,
    rateLimit: RATE_LIMITS.signin,
    handler: async (request, reply) => {
      const { user, token, message } = await withFailureStatus("False", () =>
        accounts.signin(request.body, signInContext(request)),
      );
      reply.setSessionCookie(token);
      return { status: "true", message, response: presentAccount(user, token) };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/logout",
    tag: "Accounts",
    summary: "End this session and clear its cookie",
    handler: async (request, reply) => {
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
    rateLimit: RATE_LIMITS.forgotPassword,
    handler: async (request) => ({
      status: "true",
      ...(await accounts.forgotPassword(request.body)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/reset_password",
    tag: "Accounts",
    summary: "Choose a new password with a mailed reset link; ends every session",
    body: ResetPasswordSchema,
    rateLimit: RATE_LIMITS.forgotPassword,
    handler: async (request, reply) => {
      const { message } = await accounts.resetPassword(request.body);
      reply.clearSessionCookie();
      return { status: "true", message };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/change_password",
    tag: "Accounts",
    summary: "Change the password (old password needed); ends the user's other sessions",
    body: ChangePasswordSchema,
    auth: true,
    rateLimit: RATE_LIMITS.signin,
    handler: async (request) => ({
      status: "true",
      ...(await accounts.changePassword(request.user, request.body)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/user_deleted",
    tag: "Accounts",
    summary: "Delete the signed-in user's account (needs a sign-in within 15 minutes)",
    body: UserDeletedSchema,
    auth: true,
    handler: async (request, reply) => {
      const { userId, message } = await accounts.deleteAccount(request.user, request.body);
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
    rateLimit: RATE_LIMITS.social,
    handler: async (request, reply) => {
      const { user, token } = await accounts.socialSignin(request.body, signInContext(request));
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
      "session, signed in within 15 minutes)",
    body: SocialSigninSchema,
    rateLimit: RATE_LIMITS.social,
    handler: async (request, reply) => {
      const { userId, message } = await accounts.socialDelete(request.user, request.body);
      if (request.user?.id === userId) reply.clearSessionCookie();
      return { status: "true", message, data: { response: { user_id: userId } } };
    },
  });
};
