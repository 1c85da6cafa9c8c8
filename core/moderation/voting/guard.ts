import { createHmac } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
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

/** The IPv6 address's eight groups, or null when it is not one this can read. */
function ipv6Groups(address: string): string[] | null {
  const halves = address.toLowerCase().split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(missing).fill("0"), ...tail];
  return groups.every((g) => /^[0-9a-f]{1,4}$/.test(g)) ? groups : null;
}

/**
 * The network an address belongs to, as the job groups voters: an IPv4 address by its /24, an
 * IPv6 one by its /48 (a site or household's usual allocation). Anything else: itself.
 */
export function networkPrefix(address: string): string {
  if (isIPv4(address)) return `${address.split(".").slice(0, 3).join(".")}.0/24`;
  if (isIPv6(address)) {
    const groups = ipv6Groups(address);
    if (groups)
      return `${groups
        .slice(0, 3)
        .map((g) => parseInt(g, 16).toString(16))
        .join(":")}::/48`;
  }
  return address;
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

/** Writes the network label on the member's vote of the post, just cast or switched. */
export async function stampVoteNetwork(
  db: DbOrTx,
  vote: { userId: number; postId: number; clientAddress: string },
): Promise<void> {
  const secret = await readOrMakeSiteSecret(db, NETWORK_SECRET);
  await db
    .updateTable("likes")
    .set({ voter_network: networkLabel(secret, vote.clientAddress) })
    .where("user_id", "=", vote.userId)
    .where("post_id", "=", vote.postId)
    .execute();
}
