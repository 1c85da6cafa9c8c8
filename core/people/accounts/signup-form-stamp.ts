import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../../../db/index.ts";
import { readOrMakeSiteSecret } from "../../auth/site-secrets.ts";
import { SIGNUP_DEFENCES } from "../../constants.ts";

/**
 * The register form's signed render time (docs/decisions/0085-sign-up-defences.md). A stamp is
 * `<milliseconds since 1970>.<mac>`, the MAC being HMAC-SHA256 under a secret made once and kept in
 * site_secrets: nobody without it can make a stamp, so a script cannot claim it opened the form
 * long ago. Nothing is stored; a stamp may be sent again (a form answered with a field message is
 * corrected and sent again with the stamp it had) until it is a day old.
 */

const SECRET_NAME = "signup_form_hmac";

const STAMP_SHAPE = /^([0-9]{1,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * What a sent stamp says about the sender: `absent` (none was sent: the spec's clients), `in_time`
 * (a person's pace), `too_fast` (sent back sooner than SIGNUP_DEFENCES.minimumFillMs after it was
 * made, or made "later" than now), `forged` (not made here), `expired` (older than
 * SIGNUP_DEFENCES.formLifetimeMs: a tab left open).
 */
export type StampVerdict = "absent" | "in_time" | "too_fast" | "forged" | "expired";

export interface SignupFormStamps {
  /** A stamp for a form rendered at `at`. */
  issue(at: Date): Promise<string>;
  /** What `stamp`, sent back at `at`, says. */
  judge(stamp: string | null, at: Date): Promise<StampVerdict>;
}

function mac(secret: string, issuedMs: string): string {
  return createHmac("sha256", secret).update(`signup-form\n${issuedMs}`).digest("base64url");
}

/** The stamps over the site's database; the secret is read (or made) once and kept in memory. */
export function createSignupFormStamps(db: Db): SignupFormStamps {
  let cached: Promise<string> | undefined;
  function secret(): Promise<string> {
    cached ??= readOrMakeSiteSecret(db, SECRET_NAME).catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  }

  return {
    async issue(at) {
      const issuedMs = String(at.getTime());
      return `${issuedMs}.${mac(await secret(), issuedMs)}`;
    },
    async judge(stamp, at) {
      if (stamp === null) return "absent";
      const match = STAMP_SHAPE.exec(stamp);
      if (!match) return "forged";
      const expected = Buffer.from(mac(await secret(), match[1]!));
      const given = Buffer.from(match[2]!);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "forged";
      const age = at.getTime() - Number(match[1]);
      if (age < SIGNUP_DEFENCES.minimumFillMs) return "too_fast";
      if (age > SIGNUP_DEFENCES.formLifetimeMs) return "expired";
      return "in_time";
    },
  };
}
