import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import ipaddr from "ipaddr.js";

/**
 * Who may read the metrics (docs/decisions/0094-metrics.md): a request from this machine that no
 * proxy passed on, or one that carries `Authorization: Bearer <METRICS_TOKEN>`. A reverse proxy on
 * the same box connects from loopback too; the forwarding headers it adds tell its requests apart,
 * so a request that carries any of them is not taken for a local one.
 */
const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"] as const;

export function mayReadMetrics(
  remoteAddress: string | undefined,
  headers: IncomingHttpHeaders,
  token: string | undefined,
): boolean {
  if (token !== undefined) {
    const given = /^Bearer +(\S+) *$/i.exec(headers.authorization ?? "")?.[1];
    if (given !== undefined && sameSecret(given, token)) return true;
  }
  return (
    isLoopback(remoteAddress) && FORWARDING_HEADERS.every((name) => headers[name] === undefined)
  );
}

/** 127.0.0.0/8, ::1, and the former as an IPv4-mapped IPv6 address (a dual-stack socket's). */
function isLoopback(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "loopback";
}

/** Compared in time that does not depend on where they differ (digests make the lengths equal). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
