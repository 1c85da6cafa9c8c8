import { createHmac } from "node:crypto";
import ipaddr from "ipaddr.js";
import type { DbOrTx } from "../../../db/index.ts";
import { formatSuspensionEnd } from "../../auth/suspension.ts";
import { readOrMakeSiteSecret } from "../../auth/site-secrets.ts";
import { DomainError } from "../../errors.ts";

/**
 * What every vote passes through (docs/decisions/0091-vote-integrity.md): the block check, first,
 * and the network label stamped on the vote. Exported for every kind of vote (posts' and
 * comments'), so they refuse a blocked member alike.
 */

/** The block in force for the member at `now`, if any (the latest-ending one). */
export function findVotingBlock(db: DbOrTx, userId: number, now: Date) {
  return db
    .selectFrom("voting_restrictions")
    .select(["id", "reason", "ends_at", "created_at"])
    .where("user_id", "=", userId)
    .where("kind", "=", "block")
    .where("lifted_at", "is", null)
    .where("ends_at", ">", now)
    .orderBy("ends_at", "desc")
    .executeTakeFirst();
}

/** "Your voting is blocked until 1 March 2027: <reason>" — the refusal's words. */
export function votingBlockedMessage(block: { reason: string; ends_at: Date }): string {
  const reason = block.reason.trim() || "no reason was given";
  return `Your voting is blocked until ${formatSuspensionEnd(block.ends_at)}: ${reason}`;
}

/**
 * Refuses a vote (given, switched or taken back) by a member whose voting is blocked: 403, as a
 * suspended account's sign-in is refused (core/auth/suspension.ts), with the end and the reason in
 * the message and `vote_blocked` and `blocked_until` for the apps.
 */
export async function assertMayVote(db: DbOrTx, userId: number, now: Date): Promise<void> {
  const block = await findVotingBlock(db, userId, now);
  if (!block || !block.ends_at) return;
  throw new DomainError("forbidden", votingBlockedMessage({ ...block, ends_at: block.ends_at }), {
    vote_blocked: true,
    blocked_until: block.ends_at.toISOString(),
  });
}

/**
 * The network an address belongs to, as the job groups voters: an IPv4 address by its /24, an
 * IPv6 one by its /48 (a site or household's usual allocation); an IPv4-mapped IPv6 address as its
 * IPv4 one. Anything that is not an address: itself. Parsing is ipaddr.js's, as the link checker's
 * (core/posts/freshness/address-guard.ts).
 */
export function networkPrefix(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") {
    return `${parsed.toByteArray().slice(0, 3).join(".")}.0/24`;
  }
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3).map((part) => part.toString(16));
  return `${parts.join(":")}::/48`;
}

/** The site secret the network labels are keyed with: never shown, never logged. */
export const NETWORK_SECRET = "vote-network";

/**
 * A network's label: 12 hex digits of HMAC-SHA256(site secret, prefix), shown as "a1b2-c3d4-e5f6".
 * Equal for every address of one network, and not the prefix: staff see which votes share a
 * network without the site keeping where anyone is.
 */
export function networkLabel(secret: string, address: string): string {
  const hex = createHmac("sha256", secret).update(networkPrefix(address)).digest("hex");
  return `${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}`;
}

/** The network label of the address a vote comes from, to be stored with the vote. */
export async function voteNetworkOf(db: DbOrTx, clientAddress: string): Promise<string> {
  return networkLabel(await readOrMakeSiteSecret(db, NETWORK_SECRET), clientAddress);
}
