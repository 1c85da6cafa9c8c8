import { z } from "zod";
import { pageNumber } from "../../list-query.ts";
import { text } from "../../validation.ts";

/** The console's Mail page (`/admin/mail`, `/api/admin/mail/*`): its inputs. */

/** The longest address a mail server takes (RFC 5321's path limit less its brackets). */
export const ADDRESS_MAX = 254;

export const MAIL_CONSOLE_MESSAGES = {
  address: "Please give the email address to clear, such as name@example.com.",
  addressTooLong: `An email address can be at most ${ADDRESS_MAX} characters.`,
  notListed: (address: string) => `${address} is not on the undeliverable list.`,
  cleared: (address: string) => `${address} is cleared: mail goes to it again.`,
};

/**
 * An address as the undeliverable list keeps it (migration 031): trimmed and in lower case. Only
 * its shape is checked (something@somewhere, no spaces): the list holds whatever address a mail was
 * sent to, and each must stay clearable.
 */
const listedAddress = text({ error: MAIL_CONSOLE_MESSAGES.address })
  .trim()
  .min(1, MAIL_CONSOLE_MESSAGES.address)
  .max(ADDRESS_MAX, MAIL_CONSOLE_MESSAGES.addressTooLong)
  .regex(/^[^\s@]+@[^\s@]+$/, MAIL_CONSOLE_MESSAGES.address)
  .transform((address) => address.toLowerCase());

/** `POST /api/admin/mail/undeliverable/clear {address}` and the page's "clear" form. */
export const UndeliverableClearBody = z.object({ address: listedAddress });
export type UndeliverableClearInput = z.output<typeof UndeliverableClearBody>;

/** `GET /api/admin/mail/undeliverable?page=` and the page's `?page=`. */
export const UndeliverableQuery = z.object({ page: pageNumber });
export type UndeliverableQueryInput = z.output<typeof UndeliverableQuery>;
