import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { startScriptFlags } from "../../bench/report.ts";
import { HOSTS } from "./network.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** A command running in a host's namespace, its output kept for a failure's message. */
export interface HostProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

export function runInNamespace(
  name: string,
  ns: string,
  command: string[],
  env: Record<string, string>,
): HostProcess {
  const child = spawn("ip", ["netns", "exec", ns, ...command], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (d: Buffer) => {
    output += d;
    // Enough to explain a failure; a long run's logs would otherwise grow without end.
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );
  return { name, child, exited, output: () => output };
}

/**
 * `npm start` exactly as package.json says (its Node flags, scripts/start.mjs), run with the pinned
 * Node that runs this harness; started directly so that SIGTERM reaches the cluster's primary.
 */
export function npmStartCommand(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  return [process.execPath, ...startScriptFlags(pkg.scripts.start), "scripts/start.mjs"];
}

export function npmWorkerCommand(): string[] {
  return ["npm", "run", "--silent", "worker"];
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text(): string;
}

/**
 * One HTTP request. Without an agent each request has a connection of its own, which the cluster's
 * primary hands to its processes in turn (so both processes' page caches are exercised).
 */
export function httpRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    agent?: http.Agent;
    timeoutMs?: number;
  } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method ?? "GET",
        agent: options.agent ?? false,
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("error", reject);
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: () => body.toString("utf8"),
          });
        });
      },
    );
    req.setTimeout(options.timeoutMs ?? 15_000, () =>
      req.destroy(new Error(`no answer within ${options.timeoutMs ?? 15_000} ms`)),
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** HAProxy's view of one server: its status (UP, DOWN, MAINT, "UP 1/2"…). */
export interface BackendState {
  server: string;
  status: string;
}

export interface LoadBalancer {
  url: string;
  process: HostProcess;
  servers(): Promise<BackendState[]>;
  status(server: "a" | "b"): Promise<string>;
  /** One command on HAProxy's admin socket (`disable server app/b`…), and its answer. */
  command(line: string): Promise<string>;
}

export interface HaproxyOptions {
  /**
   * Keep connections to the app hosts open between requests (HAProxy's default). Off, as the
   * multi-host test runs it, every request has a connection of its own (see the config below).
   */
  serverKeepAlive?: boolean;
}

/** HAProxy's configuration: both app hosts, checked on /readyz every 500 ms. */
export function haproxyConfig(statsSocket: string, options: HaproxyOptions = {}): string {
  const connections = options.serverKeepAlive
    ? `  # Connections to the servers are kept open between requests (HAProxy's default).
  option http-keep-alive`
    : `  # A connection of its own to a server for every request: no request is sent on a kept-alive
  # connection that a draining server is closing.
  option http-server-close`;
  return `global
  stats socket ${statsSocket} mode 600 level admin
  maxconn 2000

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout check 1s
  # A connection a stopping server refuses (or closes unanswered) is tried on the other server.
  retries 3
  option redispatch 1
  retry-on conn-failure
${connections}
  option forwardfor

frontend web
  bind ${HOSTS.lb.address}:80
  default_backend app

backend app
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  server a ${HOSTS.a.address}:3000 check inter 500ms fall 2 rise 2
  server b ${HOSTS.b.address}:3000 check inter 500ms fall 2 rise 2
`;
}

export function startLoadBalancer(workDir: string, options: HaproxyOptions = {}): LoadBalancer {
  const statsSocket = path.join(workDir, "haproxy.sock");
  const configFile = path.join(workDir, "haproxy.cfg");
  fs.writeFileSync(configFile, haproxyConfig(statsSocket, options));
  // -db: stay in the foreground, so the harness owns the process.
  const proc = runInNamespace(
    "haproxy",
    HOSTS.lb.ns,
    ["/usr/sbin/haproxy", "-db", "-f", configFile],
    {},
  );
  const command = (line: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(statsSocket);
      let text = "";
      socket.on("data", (d) => (text += d));
      socket.on("error", reject);
      socket.on("end", () => resolve(text));
      socket.end(`${line}\n`);
    });
  const servers = async (): Promise<BackendState[]> => {
    const text = await command("show stat");
    const lines = text.trim().split("\n");
    const header = lines[0]!.replace(/^# /, "").split(",");
    const rows = lines.slice(1).map((line) => line.split(","));
    const col = (name: string) => header.indexOf(name);
    return rows
      .filter(
        (r) => r[col("pxname")] === "app" && !["BACKEND", "FRONTEND"].includes(r[col("svname")]!),
      )
      .map((r) => ({ server: r[col("svname")]!, status: r[col("status")]! }));
  };
  return {
    url: `http://${HOSTS.lb.address}`,
    process: proc,
    command,
    servers,
    async status(server) {
      const found = (await servers()).find((s) => s.server === server);
      if (!found) throw new Error(`HAProxy lists no server ${server}`);
      return found.status;
    },
  };
}
