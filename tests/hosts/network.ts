import { execFileSync } from "node:child_process";
import fs from "node:fs";

/**
 * The hosts' network: a bridge in the root namespace (the "switch", where PostgreSQL's relay and the
 * S3 server listen) and one network namespace per host, each joined to it by a veth pair.
 */
export const BRIDGE = "cbd-br0";
export const GATEWAY = "10.77.0.1";

export interface HostSpec {
  /** Namespace name. */
  ns: string;
  address: string;
  /** Lines of /etc/netns/<ns>/hosts, which `ip netns exec` mounts over /etc/hosts. */
  hostsFile?: string[];
}

export const HOSTS = {
  lb: { ns: "cbd-lb", address: "10.77.0.2" },
  a: { ns: "cbd-a", address: "10.77.0.11" },
  // Hosts B and W reach PostgreSQL by names of their own and A by its address, so each host spells
  // the database differently.
  b: { ns: "cbd-b", address: "10.77.0.12", hostsFile: [`${GATEWAY} db.internal`] },
  w: { ns: "cbd-w", address: "10.77.0.20", hostsFile: [`${GATEWAY} postgres.internal`] },
} satisfies Record<string, HostSpec>;

function ip(...args: string[]) {
  try {
    execFileSync("ip", args, { stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`ip ${args.join(" ")} failed: ${stderr || String(error)}`, { cause: error });
  }
}

function ipQuiet(...args: string[]) {
  try {
    execFileSync("ip", args, { stdio: "ignore" });
  } catch {
    // Already gone.
  }
}

/** Process ids running in a namespace (none when it does not exist). */
export function namespacePids(ns: string): number[] {
  try {
    return execFileSync("ip", ["netns", "pids", ns], { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** SIGKILL to every process of a namespace: the host "loses power". */
export function killNamespace(ns: string): number[] {
  const pids = namespacePids(ns);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Ended meanwhile.
    }
  }
  return pids;
}

/**
 * Where bridged traffic goes through iptables (br_netfilter, which Docker loads, as the container
 * stage of .ci/run does) and FORWARD's policy is DROP (Docker sets it), the hosts cannot reach each
 * other over the bridge: HAProxy's checks time out. This rule lets the bridge's own traffic
 * through; tear-down removes it. Without iptables on the machine nothing filters it.
 */
const BRIDGE_FORWARD_RULE = ["FORWARD", "-i", BRIDGE, "-o", BRIDGE, "-j", "ACCEPT"];

/** Runs iptables (waiting for its lock); false when it failed or is not installed. */
function iptables(...args: string[]): boolean {
  try {
    execFileSync("iptables", ["-w", ...args], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function vethName(ns: string) {
  // Interface names are at most 15 characters: "cbd-lb" → "cbd-lb-h".
  return `${ns}-h`;
}

/**
 * Removes everything a run makes, whatever state it is in (also what an interrupted run left):
 * processes in the namespaces, the namespaces (their veth ends go with them), the bridge, its
 * iptables rule and the hosts files.
 */
export function tearDownNetwork(): void {
  for (const host of Object.values(HOSTS)) {
    killNamespace(host.ns);
    ipQuiet("netns", "del", host.ns);
    ipQuiet("link", "del", vethName(host.ns));
    fs.rmSync(`/etc/netns/${host.ns}`, { recursive: true, force: true });
  }
  ipQuiet("link", "del", BRIDGE);
  // Every copy: an interrupted run may have left one.
  while (iptables("-D", ...BRIDGE_FORWARD_RULE)) {
    // removed one
  }
  try {
    // Only when empty: /etc/netns may hold other namespaces' files.
    fs.rmdirSync("/etc/netns");
  } catch {
    // Not empty, or not there.
  }
}

export function setUpNetwork(): void {
  if (process.getuid?.() !== 0) {
    throw new Error("npm run test:hosts needs root (it makes network namespaces with `ip netns`)");
  }
  tearDownNetwork();
  ip("link", "add", BRIDGE, "type", "bridge");
  ip("addr", "add", `${GATEWAY}/24`, "dev", BRIDGE);
  ip("link", "set", BRIDGE, "up");
  if (iptables("-S", "FORWARD")) {
    if (!iptables("-I", ...BRIDGE_FORWARD_RULE)) {
      throw new Error(`iptables -I ${BRIDGE_FORWARD_RULE.join(" ")} failed`);
    }
  }
  for (const host of Object.values(HOSTS) as HostSpec[]) {
    if (host.hostsFile) {
      fs.mkdirSync(`/etc/netns/${host.ns}`, { recursive: true });
      fs.writeFileSync(
        `/etc/netns/${host.ns}/hosts`,
        ["127.0.0.1 localhost", ...host.hostsFile, ""].join("\n"),
      );
    }
    ip("netns", "add", host.ns);
    ip("link", "add", vethName(host.ns), "type", "veth", "peer", "name", "eth0", "netns", host.ns);
    ip("link", "set", vethName(host.ns), "master", BRIDGE, "up");
    ip("-n", host.ns, "addr", "add", `${host.address}/24`, "dev", "eth0");
    ip("-n", host.ns, "link", "set", "eth0", "up");
    ip("-n", host.ns, "link", "set", "lo", "up");
    ip("-n", host.ns, "route", "add", "default", "via", GATEWAY);
  }
}
