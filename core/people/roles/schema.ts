import { z } from "zod";
import { parseEndDate, text } from "../../validation.ts";

/** The console's people calls and the users list's filters (/admin/users). */

export const USER_ROLES = ["member", "moderator", "admin"] as const;
export const USER_STATUSES = ["active", "suspended", "deleted"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const USERS_PAGE_SIZE = 25;

export const USER_MESSAGES = {
  userId: "user_id must be the id of a user.",
  role: "role must be one of member, moderator or admin.",
  reasonRequired: "Please give a reason: the person is shown it when they try to sign in.",
  reasonTooLong: "The reason can be at most 500 characters.",
  until: "The end date must be a date such as 2030-01-31.",
  untilPast: "The end date must be in the future.",
  verified: "verified must be true or false.",
} as const;

const M = USER_MESSAGES;

/**
 * A user's id as JSON or a form sends it: a positive whole number, or its decimal digits. Nothing
 * else is read as a number ("0x1F", "1e3", " 7"), so a malformed id never names some other user.
 */
export const userIdField = z
  .union([z.number(), text()], { error: M.userId })
  .transform((value, context) => {
    const id =
      typeof value === "number" ? value : /^[1-9]\d{0,15}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      context.addIssue({ code: "custom", message: M.userId });
      return z.NEVER;
    }
    return id;
  });

const reason = (required: boolean) =>
  z.preprocess(
    (value) => (value === undefined || value === null ? "" : value),
    text({ multiline: true, error: M.reasonRequired })
      .trim()
      .max(500, M.reasonTooLong)
      .refine((value) => !required || value.length > 0, M.reasonRequired),
  );

/** `POST /api/admin/users/role` (administrators). */
export const ChangeRoleBody = z.object({
  user_id: userIdField,
  role: z.enum(USER_ROLES, { error: M.role }),
  reason: reason(false),
});
export type ChangeRoleInput = z.output<typeof ChangeRoleBody>;

/**
 * The end of a suspension: a date (YYYY-MM-DD, the suspension ends as that day starts, UTC) or a
 * date and time in ISO 8601 with its offset. Blank or missing: until lifted. Whether it lies in the
 * future is the service's check, against its clock.
 */
export const suspensionEnd = z.preprocess(
  (value) => (value === undefined || value === null || value === "" ? undefined : value),
  text({ error: M.until })
    .trim()
    .transform((value, context) => {
      const at = parseEndDate(value);
      if (!at) {
        context.addIssue({ code: "custom", message: M.until });
        return z.NEVER;
      }
      return at;
    })
    .optional(),
);

/** `POST /api/admin/suspend` {user_id, reason, until (optional)}. */
export const SuspendBody = z.object({
  user_id: userIdField,
  reason: reason(true),
  until: suspensionEnd,
});
export type SuspendInput = z.output<typeof SuspendBody>;

/** `POST /api/admin/unsuspend` {user_id}. */
export const UnsuspendBody = z.object({ user_id: userIdField });
export type UnsuspendInput = z.output<typeof UnsuspendBody>;

/** `POST /api/admin/users/verified_educator` {user_id, verified}. */
export const VerifiedEducatorBody = z.object({
  user_id: userIdField,
  verified: z.preprocess(
    (value) => (value === "true" ? true : value === "false" ? false : value),
    z.boolean({ error: M.verified }),
  ),
});
export type VerifiedEducatorInput = z.output<typeof VerifiedEducatorBody>;

/** `POST /api/admin/users/delete` {user_id, reason (optional)} (administrators). */
export const DeleteUserBody = z.object({ user_id: userIdField, reason: reason(false) });
export type DeleteUserInput = z.output<typeof DeleteUserBody>;

/** A query value of the list: anything unusable reads as "not given", as the page's links do. */
const lenient = <T extends z.ZodType>(schema: T, fallback: z.output<T>) =>
  z.preprocess((value) => (Array.isArray(value) ? value[0] : value), schema).catch(fallback);

/** `GET /api/admin/users?q=&role=&status=&page=` and the /admin/users page's filters. */
export const UsersQuery = z.object({
  /** A name or email (part of one), or a user's id. */
  q: lenient(text().trim().max(200), ""),
  role: lenient(z.enum(USER_ROLES).or(z.literal("")), ""),
  status: lenient(z.enum(USER_STATUSES).or(z.literal("")), ""),
  page: lenient(z.coerce.number().int().min(1).max(100_000), 1),
});
export type UsersQueryInput = z.output<typeof UsersQuery>;
