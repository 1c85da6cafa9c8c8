import dns from "node:dns/promises";
import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Which addresses a request the server makes for a user (a deal's link check, an image copied
 * into a post) may connect to. Parsing and the special ranges are ipaddr.js's: an address is
 * allowed only when its range is `unicast`, so private, loopback, link-local, CGNAT, multicast,
 * documentation, benchmarking and the other reserved ranges are refused.
 *
 * An IPv6 address that carries an IPv4 one reaches that IPv4 address (through a translator or a
 * tunnel, or straight to it on a dual-stack socket), so it is judged by what it carries:
 * IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d` (RFC 6145), IPv4-compatible
 * `::a.b.c.d`, NAT64 `64:ff9b::/96` (RFC 6052), 6to4 `2002::/16` (its relay's IPv4 address) and
 * Teredo `2001::/32` (its server's and, obfuscated, its client's). The local-use NAT64 prefix
 * `64:ff9b:1::/48` (RFC 8215) places the IPv4 address where its operator chooses: it is refused.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Two 16-bit groups as the IPv4 address they spell. */
function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

const LOCAL_NAT64 = ipaddr.IPv6.parseCIDR("64:ff9b:1::/48");

/**
 * The IPv4 addresses an IPv6 address leads to: none when it embeds none, null when it embeds one
 * that cannot be known (refused).
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = address.parts;
  // ipaddr.js's range names; ":ffff:0:0/96" and friends are told apart by it.
  switch (address.range() as string) {
    case "ipv4Mapped":
    case "rfc6145":
      return [ipv4Of(p[6]!, p[7]!)];
    case "rfc6052":
      return address.match(LOCAL_NAT64) ? null : [ipv4Of(p[6]!, p[7]!)];
    case "6to4":
      return [ipv4Of(p[1]!, p[2]!)];
    case "teredo":
      return [ipv4Of(p[2]!, p[3]!), ipv4Of(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
    default:
      break;
  }
  // IPv4-compatible (::a.b.c.d, deprecated): 96 zero bits, then the IPv4 address. :: and ::1
  // have ranges of their own (unspecified, loopback).
  const compatible = p.slice(0, 6).every((group) => group === 0);
  if (compatible && (p[6] !== 0 || p[7]! > 1)) return [ipv4Of(p[6]!, p[7]!)];
  return [];
}

function allowedParsed(address: Address, allowLoopback: boolean): boolean {
  if (address.kind() === "ipv6") {
    const embedded = embeddedIpv4(address as ipaddr.IPv6);
    if (embedded === null) return false;
    if (embedded.length) return embedded.every((v4) => allowedParsed(v4, allowLoopback));
  }
  const range = address.range() as string;
  return range === "unicast" || (allowLoopback && range === "loopback");
}

/**
 * Whether the server may connect to `address`, an IP literal as DNS answers it or a URL names it
 * (IPv6 without brackets, a zone allowed). `allowLoopback` is the tests' switch
 * (LINK_CHECK_ALLOW_LOOPBACK), which production refuses: 127.0.0.0/8 and ::1, also as carried
 * by the forms above. Anything that is not an address is refused.
 */
export function isAllowedAddress(address: string, allowLoopback = false): boolean {
  // Only the strict forms a socket would be given: ipaddr.js also reads "127.1" or "0x7f.1".
  if (net.isIP(address) === 0) return false;
  let parsed: Address;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  return allowedParsed(parsed, allowLoopback);
}

/** How a host name becomes its addresses: the system's, or a test's. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) =>
  dns.lookup(hostname, { all: true, verbatim: true });

/**
 * A socket `lookup` that answers only `address`: the connection goes to the address a guard
 * checked, whatever DNS says by the time it connects (link checks, image copies, push sends).
 */
export function pinnedLookup(address: string, family: 4 | 6): net.LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    } else callback(null, address, family);
  };
}
