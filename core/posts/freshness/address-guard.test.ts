import { describe, expect, it } from "vitest";
import { isAllowedAddress } from "./address-guard.ts";

/** [address, allowed with the loopback switch off, allowed with it on (tests only)] */
const TABLE: [string, boolean, boolean][] = [
  // Public unicast.
  ["93.184.215.14", true, true],
  ["8.8.8.8", true, true],
  ["2606:4700::1111", true, true],
  ["2a00:1450:4001:80b::200e", true, true],
  // IPv4: loopback, private, link-local, CGNAT, unspecified, multicast, broadcast, reserved.
  ["127.0.0.1", false, true],
  ["127.255.0.9", false, true],
  ["10.0.0.1", false, false],
  ["172.16.5.4", false, false],
  ["172.31.255.255", false, false],
  ["192.168.0.1", false, false],
  ["169.254.169.254", false, false],
  ["100.64.0.1", false, false],
  ["0.0.0.0", false, false],
  ["0.1.2.3", false, false],
  ["224.0.0.1", false, false],
  ["255.255.255.255", false, false],
  ["192.0.2.10", false, false],
  ["198.18.0.1", false, false],
  ["240.0.0.1", false, false],
  // IPv6 of its own: unspecified, loopback, link-local, unique local, site-local, multicast,
  // documentation, discard, benchmarking.
  ["::", false, false],
  ["::1", false, true],
  ["0:0:0:0:0:0:0:1", false, true],
  ["fe80::1", false, false],
  ["fe80::1%eth0", false, false],
  ["fd00::1", false, false],
  ["fc12:3456::1", false, false],
  ["fec0::1", false, false],
  ["ff02::1", false, false],
  ["2001:db8::1", false, false],
  ["100::1", false, false],
  ["2001:2::1", false, false],
  // IPv4-mapped ::ffff:a.b.c.d, dotted and hex, short and long.
  ["::ffff:127.0.0.1", false, true],
  ["::ffff:7f00:1", false, true],
  ["0:0:0:0:0:ffff:7f00:1", false, true],
  ["::FFFF:7F00:0001", false, true],
  ["::ffff:10.0.0.1", false, false],
  ["::ffff:a9fe:a9fe", false, false],
  ["::ffff:192.168.1.1", false, false],
  ["::ffff:8.8.8.8", true, true],
  ["::ffff:808:808", true, true],
  // IPv4-translated ::ffff:0:a.b.c.d (RFC 6145, RFC 2765).
  ["::ffff:0:127.0.0.1", false, true],
  ["::ffff:0:7f00:1", false, true],
  ["0:0:0:0:ffff:0:7f00:1", false, true],
  ["::ffff:0:10.1.2.3", false, false],
  ["::ffff:0:169.254.169.254", false, false],
  ["::ffff:0:8.8.8.8", true, true],
  // IPv4-compatible ::a.b.c.d (deprecated).
  ["::127.0.0.1", false, true],
  ["::7f00:1", false, true],
  ["::10.0.0.1", false, false],
  ["::a9fe:a9fe", false, false],
  ["::0.0.0.2", false, false],
  ["::8.8.8.8", true, true],
  // NAT64 64:ff9b::/96 (RFC 6052); the local-use prefix 64:ff9b:1::/48 (RFC 8215) always.
  ["64:ff9b::127.0.0.1", false, true],
  ["64:ff9b::7f00:1", false, true],
  ["64:ff9b::a00:1", false, false],
  ["64:ff9b::192.168.0.1", false, false],
  ["64:ff9b::808:808", true, true],
  ["64:ff9b:1::808:808", false, false],
  // 6to4 2002:AABB:CCDD::/48: the relay's IPv4 address AA.BB.CC.DD.
  ["2002:7f00:1::", false, true],
  ["2002:7f00:1::1", false, true],
  ["2002:a00:1::1", false, false],
  ["2002:c0a8:101::1", false, false],
  ["2002:a9fe:a9fe::", false, false],
  ["2002:808:808::1", true, true],
  // Teredo 2001:0:SSSS:SSSS:…:CCCC:CCCC: the server's address, and the client's (bits inverted).
  ["2001:0:a00:1::808:808", false, false], // server 10.0.0.1
  ["2001:0:808:808::80ff:fffe", false, true], // client 127.0.0.1
  ["2001:0:808:808::f5ff:fffe", false, false], // client 10.0.0.1
  ["2001:0:808:808::f7f7:f7f7", true, true], // client 8.8.8.8
  // Not addresses: names, CIDR, the loose IPv4 forms a socket is never given.
  ["localhost", false, false],
  ["example.com", false, false],
  ["10.0.0.0/8", false, false],
  ["127.1", false, false],
  ["2130706433", false, false],
  ["0x7f.0.0.1", false, false],
  ["", false, false],
];

describe("isAllowedAddress", () => {
  it.each(TABLE)("%s: %s, with loopback allowed %s", (address, allowed, withLoopback) => {
    expect(isAllowedAddress(address)).toBe(allowed);
    expect(isAllowedAddress(address, true)).toBe(withLoopback);
  });
});
