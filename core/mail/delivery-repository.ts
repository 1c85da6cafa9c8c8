import type { DbOrTx } from "../../db/index.ts";

/*
 * The mail job's records (migration 031, docs/decisions/0083-mail-delivery.md): addresses that
 * cannot take mail, and how many mails were sent, failed and suppressed each UTC day. Written by
 * the mail job and the mail queue (./queue.ts); read by My Account's banner and the console.
 */

/** What became of one mail, as mail_daily_counts counts it. */
export type MailOutcome = "sent" | "failed" | "suppressed";

/**
 * The address a mail goes to, as undeliverable_addresses keys it: the bare address of
 * "Name <address>" or of an address alone, in lower case.
 */
export function mailAddress(to: string): string {
  const bracketed = /<([^<>\s]+@[^<>\s]+)>/.exec(to);
  return (bracketed ? bracketed[1]! : to).trim().toLowerCase();
}

/** The UTC day of `at`, as mail_daily_counts.day holds it. */
export function mailDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Why `address` takes no mail, and since when; undefined when it may be mailed. */
export function findUndeliverable(db: DbOrTx, address: string) {
  return db
    .selectFrom("undeliverable_addresses")
    .select(["address", "reason", "failed_at"])
    .where("address", "=", mailAddress(address))
    .executeTakeFirst();
}

/** Marks `address` undeliverable, or renews its mark with the latest reason and time. */
export async function markUndeliverable(
  db: DbOrTx,
  mark: { address: string; reason: string; failedAt: Date },
): Promise<void> {
  await db
    .insertInto("undeliverable_addresses")
    .values({ address: mailAddress(mark.address), reason: mark.reason, failed_at: mark.failedAt })
    .onConflict((conflict) =>
      conflict.column("address").doUpdateSet({ reason: mark.reason, failed_at: mark.failedAt }),
    )
    .execute();
}

/** Counts one mail `outcome` on the UTC day of `at`. */
export async function countMail(db: DbOrTx, outcome: MailOutcome, at: Date): Promise<void> {
  await db
    .insertInto("mail_daily_counts")
    .values({ day: mailDay(at), [outcome]: 1 })
    .onConflict((conflict) =>
      conflict
        .column("day")
        .doUpdateSet((eb) => ({ [outcome]: eb(`mail_daily_counts.${outcome}`, "+", 1) })),
    )
    .execute();
}
