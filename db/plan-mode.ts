// Which plans PGlite makes for a batch of the wire protocol (record 0060, amended): generic ones for
// the named statements of db/prepared.ts, PostgreSQL's default for everything else. Plain
// TypeScript (types only): the PGlite thread imports it as it is.

import { messageLength } from "./wire-protocol.ts";

export type PlanCacheMode = "auto" | "force_generic_plan";

/** The first byte of the extended protocol's Bind message. */
const BIND = 0x42; // "B"

/**
 * The plan mode a batch of frontend messages wants: `force_generic_plan` when its first Bind binds a
 * named statement (only db/prepared.ts sends those), `auto` when it binds the unnamed one, and
 * undefined when it binds nothing (a simple query, a Sync alone), which leaves the mode as it is.
 *
 * PostgreSQL chooses a statement's plan when it is bound, and under `force_generic_plan` it makes
 * a generic plan for the unnamed statement too: one for any value of its parameters, which cannot
 * use a partial index whose predicate a parameter would have to prove (`status = $1`), so it read
 * the table instead.
 */
export function planModeFor(bytes: Uint8Array): PlanCacheMode | undefined {
  let at = 0;
  while (at + 5 <= bytes.length) {
    const type = bytes[at]!;
    const length = messageLength(bytes, at);
    if (length < 4) return undefined; // not a message: leave the mode alone
    if (type === BIND) {
      // Bind: the portal's name, then the statement's, each ending with a zero byte.
      const body = at + 5;
      const portalEnd = bytes.indexOf(0, body);
      if (portalEnd < 0 || portalEnd + 1 >= bytes.length) return undefined;
      return bytes[portalEnd + 1] === 0 ? "auto" : "force_generic_plan";
    }
    at += 1 + length;
  }
  return undefined;
}
