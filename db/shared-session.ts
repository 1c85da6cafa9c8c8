// How several node-postgres clients share PGlite's one session (docs/decisions/0070). Plain
// TypeScript (types only): the PGlite thread imports it as it is.
import { messageLength } from "./wire-protocol.ts";

/** The first byte of the extended protocol's Parse message. */
const PARSE = 0x50; // "P"
/** The backend's answer to a Parse that succeeded: "1", length 4. */
export const PARSE_COMPLETE = Uint8Array.of(0x31, 0, 0, 0, 4);

/** A batch's leading Parse of a named statement: its name, the whole message, and what follows. */
export interface LeadingParse {
  name: string;
  /** The Parse message itself (name, text, parameter types): equal bytes mean the same statement. */
  message: Uint8Array;
  /** The batch without it. */
  rest: Uint8Array;
}

/**
 * The Parse that begins a batch, when it names its statement. node-postgres writes a query as
 * Parse (only the first time that client runs a named statement), Bind, Describe, Execute, Sync,
 * so a Parse is always first; the unnamed statement ("") is parsed anew by every query.
 */
export function leadingParse(batch: Uint8Array): LeadingParse | undefined {
  if (batch.length < 6 || batch[0] !== PARSE) return undefined;
  const end = 1 + messageLength(batch, 0);
  if (end > batch.length) return undefined;
  const nameEnd = batch.indexOf(0, 5);
  if (nameEnd <= 5 || nameEnd >= end) return undefined;
  return {
    name: Buffer.from(batch.buffer, batch.byteOffset + 5, nameEnd - 5).toString("utf8"),
    message: batch.subarray(0, end),
    rest: batch.subarray(end),
  };
}

/** Whether an answer begins with ParseComplete: the batch's leading Parse succeeded. */
export function beginsWithParseComplete(answer: Uint8Array): boolean {
  return PARSE_COMPLETE.every((byte, i) => answer[i] === byte);
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** A PostgreSQL identifier, quoted, for a DEALLOCATE. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
