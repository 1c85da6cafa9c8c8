// `npm run test:hosts`: the site on several hosts of one machine (docs/decisions/0107). Each host is
// a network namespace; two app hosts run `npm start` with two processes each, a worker host runs
// `npm run worker`, HAProxy balances the app hosts on /readyz, and PostgreSQL and an S3 server are
// reached over the hosts' network. Needs root, /usr/sbin/haproxy and PostgreSQL on 127.0.0.1:5432.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSession } from "../../core/auth/sessions.ts";
import { hashPassword } from "../../core/auth/password.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import type { Db } from "../../db/index.ts";
import { productionBuildState, runProductionBuild } from "../../scripts/production-build.ts";
import { startCuttableRelay } from "../helpers/cuttable-relay.ts";
import { multipartBody, pngImage } from "../helpers/multipart.ts";
import { startLocalS3, type LocalS3 } from "../helpers/s3-server.ts";
import { createServerSchema, waitUntil, type ServerSchema } from "../helpers/server-process.ts";
import { establishMember } from "../helpers/users.ts";
import { startLoad, type LoadRun } from "./load.ts";
import { GATEWAY, HOSTS, killNamespace, setUpNetwork, tearDownNetwork } from "./network.ts";
import {
  httpRequest,
  npmStartCommand,
  npmWorkerCommand,
  runInNamespace,
  startLoadBalancer,
  type HostProcess,
  type LoadBalancer,
} from "./processes.ts";

const root = path.resolve(import.meta.dirname, "../..");
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const say = (line: string) => console.log(`[hosts ${elapsed()}] ${line}`);

/** Where PostgreSQL listens on this machine (loopback only); the hosts reach it through a relay. */
const databaseUrl = new URL(
  process.env.HOSTS_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
);
const PASSWORD = "Chalk#Board42";
/** HAProxy's check: every 500 ms, down after 2 failures. */
const CHECK_INTER_MS = 500;
const CHECK_FALL = 2;

interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}
const results: CheckResult[] = [];

async function check(name: string, work: () => Promise<string>): Promise<boolean> {
  const t0 = Date.now();
  say(`check: ${name}`);
  try {
    const detail = await work();
    results.push({ name, ok: true, detail, ms: Date.now() - t0 });
    say(`  ok: ${detail}`);
    return true;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    results.push({ name, ok: false, detail, ms: Date.now() - t0 });
    say(`  FAILED: ${detail}`);
    return false;
  }
}

function fail(message: string): never {
  throw new Error(message);
}

/** Polls until `ok` or `ms` pass; answers how long it took, or throws `message`. */
async function within(ms: number, message: string, ok: () => Promise<boolean>): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await ok().catch(() => false)) return Date.now() - t0;
    if (Date.now() - t0 > ms) fail(message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// ---------------------------------------------------------------------------------------------
// Set-up and tear-down

const cleanups: (() => Promise<void> | void)[] = [];
let tornDown = false;
async function tearDown() {
  if (tornDown) return;
  tornDown = true;
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error(`tear-down step failed: ${String(error)}`);
    }
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    say(`${signal}: tearing down`);
    void tearDown().finally(() => process.exit(130));
  });
}

function hostDatabaseUrl(schema: ServerSchema, host: string, applicationName: string): string {
  const url = new URL(schema.url);
  url.hostname = host;
  url.searchParams.set("application_name", applicationName);
  return url.href;
}

interface AppHost {
  name: "a" | "b";
  ns: string;
  url: string;
  env: Record<string, string>;
  process: HostProcess;
}

async function startAppHost(host: AppHost): Promise<void> {
  host.process = runInNamespace(`host ${host.name}`, host.ns, npmStartCommand(), host.env);
  await waitUntil(
    async () => {
      if (host.process.child.exitCode !== null) {
        fail(`host ${host.name}'s npm start exited:\n${host.process.output().slice(-3000)}`);
      }
      const answer = await httpRequest(`${host.url}/readyz`, { timeoutMs: 2000 }).catch(
        () => undefined,
      );
      return answer?.status === 200;
    },
    { timeoutMs: 120_000, intervalMs: 200, what: `host ${host.name} to answer /readyz` },
  );
}

async function stopAppHost(host: AppHost): Promise<number | null> {
  host.process.child.kill("SIGTERM");
  return host.process.exited;
}

async function seed(db: Db) {
  const store = await db
    .insertInto("stores")
    .values({ title: "Hosts Test Store", slug: "hosts-test-store" })
    .returning(["id", "slug"])
    .executeTakeFirstOrThrow();
  const category = await db
    .insertInto("categories")
    .values({ title: "Hosts Test Supplies", slug: "hosts-test-supplies" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const forum = await db
    .insertInto("forums")
    .values({ title: "Deals", slug: "deals", type: "d" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const forumCategory = await db
    .insertInto("forum_categories")
    .values({ forum_id: forum.id, kind: "deal", title: "Classroom" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const member = async (name: string, password?: string) => {
    const row = await db
      .insertInto("users")
      .values({
        name,
        email: `${name.toLowerCase().replace(/\W+/g, "-")}@example.com`,
        password_hash: password ? await hashPassword(password) : null,
        user_type: "Teacher",
        email_verified_at: new Date(),
      })
      .returning(["id", "email"])
      .executeTakeFirstOrThrow();
    // Past the newcomer rules, so that posts publish at once (docs/decisions/0089).
    await establishMember(db, row.id);
    return row;
  };
  const poster = await member("Hosts Poster", PASSWORD);
  const posterToken = (await createSession(db, poster.id, "hosts-test")).token;
  // Enough members that the load's comments stay under each one's limit (30 in 10 minutes).
  const writers: { userId: number; token: string }[] = [];
  for (let i = 0; i < 60; i++) {
    const row = await member(`Hosts Writer ${i}`);
    writers.push({ userId: row.id, token: (await createSession(db, row.id, "hosts-load")).token });
  }
  return { store, category, forumCategory, poster, posterToken, writers };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const buildState = productionBuildState(root);
  if (buildState !== "fresh") {
    say(`the production build is ${buildState}: building (npm run build)`);
    const build = await runProductionBuild(root, "pipe");
    if (!build.ok) fail(`npm run build failed:\n${build.output}`);
  }

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-hosts-"));
  cleanups.push(() => fs.rmSync(workDir, { recursive: true, force: true }));

  say("network: bridge cbd-br0 10.77.0.1/24, namespaces cbd-lb, cbd-a, cbd-b, cbd-w");
  cleanups.push(() => tearDownNetwork());
  setUpNetwork();

  const relay = await startCuttableRelay(databaseUrl, { host: GATEWAY, port: 5432 });
  cleanups.push(() => relay.close());
  const schema = await createServerSchema(databaseUrl.href);
  cleanups.push(() => schema.drop());
  const db = schema.handle.db;
  const world = await seed(db);

  const s3: LocalS3 = await startLocalS3("chalkboard-media", GATEWAY);
  cleanups.push(() => s3.close());

  const lbUrl = `http://${HOSTS.lb.address}`;
  const common = {
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    DEMO_DATA: "off",
    RATE_LIMIT: "on",
    PUBLIC_URL: lbUrl,
    // HAProxy's X-Forwarded-For is believed; nobody else's (docs/decisions/0023).
    TRUST_PROXY: HOSTS.lb.address,
    SHUTDOWN_DRAIN_S: "2",
    ...s3.env,
  };
  const appHost = (name: "a" | "b", dbHost: string): AppHost => ({
    name,
    ns: HOSTS[name].ns,
    url: `http://${HOSTS[name].address}:3000`,
    env: {
      ...common,
      DATABASE_URL: hostDatabaseUrl(schema, dbHost, `cbd-hosts-${name}`),
      WEB_CONCURRENCY: "2",
      PORT: "3000",
      HOST: "0.0.0.0",
      DATA_DIR: fs.mkdtempSync(path.join(workDir, `data-${name}-`)),
    },
    process: undefined as unknown as HostProcess,
  });
  const hostA = appHost("a", GATEWAY);
  const hostB = appHost("b", "db.internal");
  say(`host a: DATABASE_URL=${hostA.env.DATABASE_URL}`);
  say(`host b: DATABASE_URL=${hostB.env.DATABASE_URL}`);
  cleanups.push(async () => {
    for (const host of [hostA, hostB]) {
      if (host.process && host.process.child.exitCode === null) {
        host.process.child.kill("SIGKILL");
        await host.process.exited;
      }
    }
  });
  await Promise.all([startAppHost(hostA), startAppHost(hostB)]);
  say("hosts a and b answer /readyz");

  const workerEnv = {
    ...common,
    DATABASE_URL: hostDatabaseUrl(schema, "postgres.internal", "cbd-hosts-worker"),
    METRICS_PORT: "9464",
    // Its probes answer on the host's address, for the harness to ask.
    HOST: "0.0.0.0",
    DATA_DIR: fs.mkdtempSync(path.join(workDir, "data-w-")),
  };
  const worker = runInNamespace("worker", HOSTS.w.ns, npmWorkerCommand(), workerEnv);
  cleanups.push(() => void killNamespace(HOSTS.w.ns));
  await waitUntil(
    async () => {
      if (worker.child.exitCode !== null) fail(`the worker exited:\n${worker.output()}`);
      const answer = await httpRequest(`http://${HOSTS.w.address}:9464/readyz`, {
        timeoutMs: 2000,
      }).catch(() => undefined);
      return answer?.status === 200;
    },
    { timeoutMs: 120_000, intervalMs: 200, what: "the worker to answer /readyz" },
  );
  say("the worker answers /readyz");

  const lb: LoadBalancer = startLoadBalancer(workDir);
  cleanups.push(() => void killNamespace(HOSTS.lb.ns));
  await waitUntil(
    async () => {
      if (lb.process.child.exitCode !== null) fail(`HAProxy exited:\n${lb.process.output()}`);
      const servers = await lb.servers().catch(() => []);
      return servers.length === 2 && servers.every((s) => s.status === "UP");
    },
    { timeoutMs: 20_000, intervalMs: 100, what: "HAProxy to mark both hosts UP" },
  );
  say("HAProxy marks both hosts UP");

  await runChecks({ db, world, s3, hostA, hostB, lb });
}

interface World {
  db: Db;
  world: Awaited<ReturnType<typeof seed>>;
  s3: LocalS3;
  hostA: AppHost;
  hostB: AppHost;
  lb: LoadBalancer;
}

async function postDeal(host: AppHost, w: World["world"], title: string, image?: Buffer) {
  const body = await multipartBody(
    {
      user_id: w.poster.id,
      deal_category: w.forumCategory.id,
      store_id: w.store.id,
      category_id: w.category.id,
      title,
      deal_description: "<p>Posted through one host, read through another.</p>",
      price: "19.99",
      discount: "20",
      expiry: "2999-12-31",
      deal_image: "",
    },
    image ? { name: "deal.png", type: "image/png", bytes: image } : undefined,
  );
  const answer = await httpRequest(`${host.url}/api/save_deal`, {
    method: "POST",
    headers: { ...body.headers, authorization: `Bearer ${w.posterToken}` },
    body: body.payload,
  });
  const json = JSON.parse(answer.text() || "{}") as { response?: { unique_id?: string } };
  const uniqueId = json.response?.unique_id;
  if (answer.status !== 200 || !uniqueId) {
    fail(
      `POST /api/save_deal through host ${host.name} answered ${answer.status}: ${answer.text().slice(0, 300)}`,
    );
  }
  return uniqueId;
}

/** Whether an anonymous page (no cookie) of a host lists the deal. */
async function pageShows(host: AppHost, page: string, uniqueId: string): Promise<boolean> {
  const answer = await httpRequest(`${host.url}${page}`);
  if (answer.status !== 200) fail(`GET ${page} on host ${host.name} answered ${answer.status}`);
  return answer.text().includes(`/post/${uniqueId}/`);
}

async function runChecks(t: World) {
  const { db, world, hostA, hostB } = t;
  const listPages = ["/", "/newdeals", `/store/${world.store.slug}`];
  let dealUniqueId: string | undefined;

  await check("a deal posted through A shows on B's cached pages within 2 s", async () => {
    // Fill both hosts' caches (each of their processes) with the pages as they are before the post.
    for (let i = 0; i < 4; i++) {
      for (const page of listPages) {
        for (const host of [hostA, hostB]) await pageShows(host, page, "none-yet");
      }
    }
    const uniqueId = await postDeal(hostA, world, "Cross-host laminator deal");
    dealUniqueId = uniqueId;
    const took: string[] = [];
    for (const page of listPages) {
      // Several asks, so that both of B's processes (each with its own cache) must show it.
      const ms = await within(
        2000,
        `host B's cached ${page} still lacks the deal ${uniqueId} 2 s after host A acknowledged it`,
        async () => {
          for (let i = 0; i < 4; i++) if (!(await pageShows(hostB, page, uniqueId))) return false;
          return true;
        },
      );
      took.push(`${page} ${ms} ms`);
    }
    return `deal ${uniqueId} on B: ${took.join(", ")}`;
  });

  await check(
    "a deal the worker's expiry sweep expires leaves A's and B's cached lists within 2 s",
    async () => {
      const uniqueId = dealUniqueId ?? fail("no deal was posted (the check before failed)");
      // Both hosts' home pages list the live deal first: at once when the check above passed, else
      // once a stale cached page has aged out (60 s, server/plugins/page-cache.ts), so that this
      // check tests the sweep's notice whatever became of the post's.
      for (const host of [hostA, hostB]) {
        await waitUntil(
          async () => {
            for (let i = 0; i < 4; i++) if (!(await pageShows(host, "/", uniqueId))) return false;
            return true;
          },
          {
            timeoutMs: 70_000,
            intervalMs: 500,
            what: `host ${host.name}'s home page to list the live deal ${uniqueId}`,
          },
        );
      }
      // The deal ends now; the worker's minute sweep (core/posts/expiry/sweep.ts) marks it expired.
      await db
        .updateTable("posts")
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where("unique_id", "=", uniqueId)
        .execute();
      say("  waiting for the worker's minute sweep to mark the deal expired…");
      // Meanwhile both hosts' home pages are asked for, so that the pages cached when the sweep
      // runs were stored before it (a cached page lives 60 s, server/plugins/page-cache.ts): what
      // removes the deal from them is then the sweep's change notice, not their age.
      await waitUntil(
        async () => {
          const { expired } = await db
            .selectFrom("posts")
            .select("expired")
            .where("unique_id", "=", uniqueId)
            .executeTakeFirstOrThrow();
          if (!expired) {
            for (const host of [hostA, hostB]) await pageShows(host, "/", uniqueId);
          }
          return expired;
        },
        {
          timeoutMs: 90_000,
          intervalMs: 100,
          what: "the worker's expiry sweep to expire the deal",
        },
      );
      const took: string[] = [];
      for (const host of [hostA, hostB]) {
        const ms = await within(
          2000,
          `host ${host.name}'s cached home page still lists deal ${uniqueId} 2 s after the worker's sweep expired it`,
          async () => {
            for (let i = 0; i < 4; i++) if (await pageShows(host, "/", uniqueId)) return false;
            return true;
          },
        );
        took.push(`${host.name} ${ms} ms`);
      }
      return `expired deal gone from home: ${took.join(", ")} after the sweep`;
    },
  );

  await check("an image uploaded through A is served by B", async () => {
    const image = await pngImage(80, 60);
    const uniqueId = await postDeal(hostA, world, "Cross-host poster paper", image);
    const row = await db
      .selectFrom("posts")
      .select("image_url")
      .where("unique_id", "=", uniqueId)
      .executeTakeFirstOrThrow();
    if (!row.image_url.startsWith("/media/"))
      fail(`the deal's image_url is ${JSON.stringify(row.image_url)}`);
    const keys = await t.s3.keys();
    const key = row.image_url.replace(/^\/media\//, "");
    if (!keys.includes(key))
      fail(`the bucket has no ${key} (it holds ${keys.join(", ") || "nothing"})`);
    const answer = await httpRequest(`${hostB.url}${row.image_url}`);
    const type = String(answer.headers["content-type"] ?? "");
    if (answer.status !== 200 || !type.startsWith("image/") || answer.body.length === 0) {
      fail(
        `GET ${row.image_url} on host B answered ${answer.status} (${type}, ${answer.body.length} bytes)`,
      );
    }
    return `${row.image_url}: ${answer.body.length} bytes of ${type} from B`;
  });

  await check("a member signed in through A stays signed in on B", async () => {
    const signin = await httpRequest(`${hostA.url}/api/signin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: world.poster.email, password: PASSWORD }),
    });
    if (signin.status !== 200)
      fail(`sign-in through A answered ${signin.status}: ${signin.text()}`);
    const cookie = (signin.headers["set-cookie"] ?? [])
      .map((c) => c.split(";")[0]!)
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (!cookie) fail("sign-in through A set no session cookie");
    const anonymous = await httpRequest(`${hostB.url}/user/profile`);
    if (anonymous.status === 200) fail("host B shows My Account to a visitor with no cookie");
    for (let i = 0; i < 4; i++) {
      const page = await httpRequest(`${hostB.url}/user/profile`, { headers: { cookie } });
      if (page.status !== 200 || !page.text().includes("Hosts Poster")) {
        fail(
          `host B answered My Account with ${page.status} for the cookie host A set (not signed in)`,
        );
      }
    }
    return "My Account on B (both processes) with A's session cookie";
  });

  await check("rate limits count across both hosts", async () => {
    // Sign-in guesses: 10 an address in 15 minutes (server/plugins/rate-limit.ts); one sign-in above
    // counted already. 6 through A stay under; B must refuse by the 5th of its own.
    const guess = (host: AppHost, i: number) =>
      httpRequest(`${host.url}/api/signin`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `nobody-${i}@example.com`, password: "wrong-password-1" }),
      });
    for (let i = 0; i < 6; i++) {
      const answer = await guess(hostA, i);
      if (answer.status === 429) fail(`host A refused guess ${i + 1} already`);
    }
    for (let i = 0; i < 6; i++) {
      const answer = await guess(hostB, 100 + i);
      if (answer.status === 429) {
        if (i >= 5) fail(`host B refused only its guess ${i + 1}: it did not count A's`);
        const backOnA = await guess(hostA, 200);
        if (backOnA.status !== 429)
          fail(`host A answered ${backOnA.status} after B's limit was reached`);
        return `B refused its guess ${i + 1} (after A's 6), and A refuses too`;
      }
    }
    fail("host B never refused: it counted only its own guesses");
  });

  await rollingRestartAndLostHost(t);
}

function summarizeFailures(load: LoadRun, from = 0, to = Infinity): string {
  const list = load.failures.filter((f) => f.at >= from && f.at <= to);
  return list
    .slice(0, 5)
    .map((f) => `${f.what}: ${f.error}`)
    .join("; ");
}

async function missingWrites(db: Db, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = new Set(
    (await db.selectFrom("comments").select("id").where("id", "in", ids).execute()).map(
      (r) => r.id,
    ),
  );
  return ids.filter((id) => !found.has(id));
}

async function rollingRestartAndLostHost(t: World) {
  const { db, world, hostA, hostB, lb } = t;
  const postIds = (
    await db.selectFrom("posts").select("id").where("status", "=", "active").execute()
  ).map((r) => r.id);
  if (postIds.length === 0) {
    await check("rolling restart under steady load", async () => fail("no deal to comment on"));
    return;
  }
  const load = startLoad({
    baseUrl: lb.url,
    connections: 20,
    pages: ["/", "/newdeals", `/store/${world.store.slug}`, "/api/stores_list"],
    writers: world.writers,
    postIds,
    writesPerSecond: 5,
  });
  let loadStopped = false;
  const stopLoad = async () => {
    if (!loadStopped) {
      loadStopped = true;
      await load.stop();
    }
  };
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await check(
      "rolling restart under 20 busy connections: no failed request, no lost write",
      async () => {
        const steps: string[] = [];
        for (const host of [hostA, hostB]) {
          const t0 = Date.now();
          const code = await stopAppHost(host);
          if (code !== 0)
            fail(
              `host ${host.name}'s npm start ended with ${code} on SIGTERM:\n${host.process.output().slice(-2000)}`,
            );
          const t1 = Date.now();
          await startAppHost(host);
          const t2 = Date.now();
          await waitUntil(async () => (await lb.status(host.name)) === "UP", {
            timeoutMs: 20_000,
            intervalMs: 100,
            what: `HAProxy to mark host ${host.name} UP again`,
          });
          const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
          steps.push(
            `${host.name} (stop ${s(t1 - t0)}, start ${s(t2 - t1)}, UP ${s(Date.now() - t2)})`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const failures = load.failures.length;
        const acknowledged = load.acknowledged.map((a) => a.id);
        const missing = await missingWrites(db, acknowledged);
        if (failures)
          fail(`${failures} of ${load.requests} requests failed: ${summarizeFailures(load)}`);
        if (missing.length)
          fail(
            `${missing.length} acknowledged writes are missing: ${missing.slice(0, 10).join(", ")}`,
          );
        if (acknowledged.length === 0) fail("the load wrote nothing: the check proves nothing");
        return `restarted ${steps.join(", then ")}; ${load.requests} requests, 0 failed; ${acknowledged.length} writes acknowledged, all in the database`;
      },
    );

    await check(
      "a host lost mid-load (SIGKILL): HAProxy stops sending to it, no acknowledged write lost",
      async () => {
        const failuresBefore = load.failures.length;
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const killedAt = Date.now();
        const pids = killNamespace(hostB.ns);
        const downMs = await within(
          CHECK_INTER_MS * CHECK_FALL + 1500,
          `HAProxy still sends to host B ${CHECK_INTER_MS * CHECK_FALL + 1500} ms after its processes were killed`,
          async () => (await lb.status("b")).startsWith("DOWN"),
        );
        const downAt = killedAt + downMs;
        await new Promise((resolve) => setTimeout(resolve, 3000));
        await stopLoad();
        const inFlight = load.failures.slice(failuresBefore).filter((f) => f.at <= downAt);
        const after = load.failures.slice(failuresBefore).filter((f) => f.at > downAt);
        const acknowledged = load.acknowledged.map((a) => a.id);
        const missing = await missingWrites(db, acknowledged);
        if (missing.length)
          fail(
            `${missing.length} acknowledged writes are missing: ${missing.slice(0, 10).join(", ")}`,
          );
        if (after.length)
          fail(
            `${after.length} requests failed after HAProxy marked B down: ${summarizeFailures(load, downAt + 1)}`,
          );
        return `killed ${pids.length} processes; B DOWN after ${downMs} ms (check: ${CHECK_INTER_MS} ms × ${CHECK_FALL}); ${inFlight.length} requests in flight to B failed (allowed: only acknowledged writes must survive); ${acknowledged.length} writes acknowledged, all in the database`;
      },
    );
  } finally {
    await stopLoad();
  }
}

let exitCode = 1;
try {
  await main();
  exitCode = results.length > 0 && results.every((r) => r.ok) ? 0 : 1;
} catch (error) {
  console.error(
    `\nthe multi-host run stopped: ${error instanceof Error ? error.message : String(error)}`,
  );
} finally {
  say("tearing down");
  await tearDown();
  const width = Math.max(...results.map((r) => r.name.length), 10);
  console.log(`\nMulti-host checks (${elapsed()} in all)`);
  for (const r of results) {
    console.log(
      `${r.ok ? "ok  " : "FAIL"}  ${r.name.padEnd(width)}  ${(r.ms / 1000).toFixed(1).padStart(6)} s`,
    );
    console.log(`      ${r.detail}`);
  }
  if (results.length === 0) console.log("no check ran");
}
process.exit(exitCode);
