import net from "node:net";
import {
  isAllowedAddress,
  systemResolver,
  type Resolver,
} from "../../posts/freshness/address-guard.ts";

/**
 * Which push endpoints the server may post to (docs/decisions/0109-push-alerts.md): https on a
 * public address, as the link check's guard judges addresses (core/posts/freshness/address-guard.ts).
 * Asked when a browser subscribes and again before every send, since DNS may have changed: the
 * send then connects to the very address checked here.
 *
 * PUSH_ALLOW_LOOPBACK (tests only, refused in production) also admits loopback addresses, over
 * http too, on any port: a local push service.
 */

/** An endpoint the server will not post to, and why, in words a member can read. */
export class EndpointRefused extends Error {}

/** An endpoint that may be posted to, and the address the connection must go to. */
export interface VettedEndpoint {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Ports a push service listens on: the web's https ports. */
const PUSH_PORTS = new Set([443, 8443]);

export async function vetEndpoint(
  endpoint: string,
  allowLoopback: boolean,
  resolve: Resolver = systemResolver,
): Promise<VettedEndpoint> {
  const url = URL.canParse(endpoint) ? new URL(endpoint) : null;
  if (!url) throw new EndpointRefused("The push endpoint is not an address.");
  if (url.username || url.password) {
    throw new EndpointRefused("The push endpoint may not carry a user name or password.");
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      throw new EndpointRefused(`The push endpoint's host ${host} does not resolve.`);
    }
  }
  const blocked = addresses.find((a) => !isAllowedAddress(a.address, allowLoopback));
  if (blocked) {
    throw new EndpointRefused(
      `The push endpoint's host ${host} is a private or reserved address (${blocked.address}).`,
    );
  }
  const loopbackOnly = allowLoopback && addresses.every((a) => !isAllowedAddress(a.address, false));
  if (url.protocol !== "https:" && !(loopbackOnly && url.protocol === "http:")) {
    throw new EndpointRefused("The push endpoint must be an https address.");
  }
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  if (!loopbackOnly && !PUSH_PORTS.has(port)) {
    throw new EndpointRefused(`The push endpoint's port ${port} is not an https port.`);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
