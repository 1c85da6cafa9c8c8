import webpush from "web-push";
import type { DbOrTx } from "../../../db/index.ts";
import { readOrMakeSiteSecret } from "../../auth/site-secrets.ts";

/**
 * The site's VAPID key pair (RFC 8292), made at first use and kept with the site's secrets, so
 * every process on the database signs with the same key and browsers' subscriptions, which are
 * bound to the public key, keep working across restarts (docs/decisions/0109-push-alerts.md).
 */

export interface VapidKeys {
  /** The uncompressed P-256 public key, base64url: the browser's applicationServerKey. */
  publicKey: string;
  privateKey: string;
}

const SECRET_NAME = "vapid_keys";

export async function readOrMakeVapidKeys(db: DbOrTx): Promise<VapidKeys> {
  const stored = await readOrMakeSiteSecret(db, SECRET_NAME, () =>
    JSON.stringify(webpush.generateVAPIDKeys()),
  );
  const keys = JSON.parse(stored) as VapidKeys;
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}

/**
 * Who the push services may contact about this site's pushes (the JWT's `sub`): the site's own
 * address when it is https, else a mail address at its host.
 */
export function vapidSubject(publicUrl: string): string {
  const url = new URL(publicUrl);
  return url.protocol === "https:" ? url.origin : `mailto:webmaster@${url.hostname}`;
}
