import {
  createECDH,
  createPublicKey,
  randomBytes,
  randomUUID,
  verify,
  type ECDH,
} from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import ece from "http_ece";

/**
 * A local push service (RFC 8030) for tests, in the part a site talks to: it takes a push
 * message only with a valid VAPID Authorization (RFC 8292: an ES256 JWT whose signature checks
 * against the `k=` key, `aud` this service's origin, `exp` in the next 24 hours, `sub` a mailto: or
 * https: address) and a payload encrypted as aes128gcm (RFC 8291) to the subscription's keys,
 * which it decrypts with the browser's private key and auth secret, as a browser would.
 * Each subscription it hands out is a browser's: endpoint, keys, and what it has been sent.
 */

export interface PushedMessage {
  endpoint: string;
  /** The decrypted payload. */
  text: string;
  json: unknown;
  headers: { ttl: string; urgency: string; topic: string | undefined };
  /** The VAPID key the message was signed with (base64url) and the JWT's claims. */
  vapidKey: string;
  claims: { aud: string; exp: number; sub: string };
  at: Date;
}

export interface FakeBrowser {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** What PushSubscription.toJSON() gives: the body of /api/push_subscribe. */
  toJSON(): { endpoint: string; keys: { p256dh: string; auth: string } };
}

interface Registered {
  ecdh: ECDH;
  auth: Buffer;
  /** Answer this status instead of taking the message (404, 410, 500…). */
  answer?: number;
}

/** Why a push was refused, for the test's failure message. */
export interface RefusedPush {
  endpoint: string;
  status: number;
  reason: string;
}

function base64urlJson(part: string): unknown {
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
}

/** Checks a `vapid t=…, k=…` Authorization; the reason it fails, or its claims and key. */
function checkVapid(
  authorization: string | undefined,
  origin: string,
): { error: string } | { claims: PushedMessage["claims"]; key: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
  if (!match) return { error: `no vapid Authorization: ${authorization ?? "(none)"}` };
  const [, token, key] = match as unknown as [string, string, string];
  const parts = token.split(".");
  if (parts.length !== 3) return { error: "the JWT does not have three parts" };
  const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
  const header = base64urlJson(headerPart) as { alg?: string; typ?: string };
  if (header.alg !== "ES256") return { error: `the JWT's alg is ${header.alg}, not ES256` };
  const point = Buffer.from(key, "base64url");
  if (point.length !== 65 || point[0] !== 4)
    return { error: "k= is not an uncompressed P-256 key" };
  const publicKey = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${headerPart}.${claimsPart}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(signaturePart, "base64url"),
  );
  if (!signed) return { error: "the JWT's signature does not match k=" };
  const claims = base64urlJson(claimsPart) as PushedMessage["claims"];
  if (claims.aud !== origin) return { error: `aud is ${claims.aud}, not ${origin}` };
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) {
    return { error: `exp ${claims.exp} is not within the next 24 hours` };
  }
  if (!/^(mailto:|https:\/\/)/.test(claims.sub ?? "")) {
    return { error: `sub ${claims.sub} is neither mailto: nor https:` };
  }
  return { claims, key };
}

export async function startPushService() {
  const browsers = new Map<string, Registered>();
  const messages: PushedMessage[] = [];
  const refused: RefusedPush[] = [];
  let origin = "";
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const endpoint = `${origin}${request.url ?? ""}`;
      const answer = (status: number, reason = "") => {
        if (status >= 400) refused.push({ endpoint, status, reason });
        response.writeHead(status, { "content-type": "text/plain" });
        response.end(reason);
      };
      const browser = browsers.get(endpoint);
      if (request.method !== "POST") return answer(405, "POST only");
      if (!browser) return answer(404, "no such subscription");
      if (browser.answer) return answer(browser.answer, "told to answer so");
      const vapid = checkVapid(request.headers.authorization, origin);
      if ("error" in vapid) return answer(401, vapid.error);
      if (request.headers["content-encoding"] !== "aes128gcm") {
        return answer(415, `content-encoding ${request.headers["content-encoding"]}`);
      }
      const ttl = request.headers.ttl;
      if (typeof ttl !== "string" || !/^\d+$/.test(ttl)) return answer(400, "no TTL");
      const body = Buffer.concat(chunks);
      if (body.length > 4096) return answer(413, "payload over 4096 bytes");
      let text: string;
      try {
        text = ece
          .decrypt(body, {
            version: "aes128gcm",
            privateKey: browser.ecdh,
            authSecret: browser.auth,
          })
          .toString("utf8");
      } catch (error) {
        return answer(400, `the payload does not decrypt: ${(error as Error).message}`);
      }
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // Recorded as text; a test that expects JSON fails on json === null.
      }
      messages.push({
        endpoint,
        text,
        json,
        headers: {
          ttl,
          urgency: String(request.headers.urgency ?? ""),
          topic: request.headers.topic as string | undefined,
        },
        vapidKey: vapid.key,
        claims: vapid.claims,
        at: new Date(),
      });
      answer(201);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    messages,
    refused,
    /** A new browser profile's subscription at this service. */
    browser(): FakeBrowser {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${randomUUID()}`;
      browsers.set(endpoint, { ecdh, auth });
      const keys = {
        p256dh: ecdh.getPublicKey().toString("base64url"),
        auth: auth.toString("base64url"),
      };
      return { endpoint, keys, toJSON: () => ({ endpoint, keys }) };
    },
    /** From now on `endpoint` answers `status` (404, 410: gone; 500: failing), or works again. */
    answer(endpoint: string, status: number | undefined) {
      const browser = browsers.get(endpoint);
      if (!browser) throw new Error(`no browser at ${endpoint}`);
      browser.answer = status;
    },
    to(endpoint: string) {
      return messages.filter((m) => m.endpoint === endpoint);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type PushService = Awaited<ReturnType<typeof startPushService>>;
