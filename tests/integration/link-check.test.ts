import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_REPORTER } from "../../core/moderation/presenter.ts";
import {
  linkCheckJob,
  linkCheckSweepJob,
  planLinkChecks,
  STORE_SPACING_SECONDS,
} from "../../core/posts/freshness/link-check-job.ts";
import {
  checkLink,
  isAllowedAddress,
  type LinkCheckSettings,
} from "../../core/posts/freshness/link-check.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/*
 * The link check (record 0038) against a local HTTP server this file starts: statuses, redirects,
 * a server that hangs, a 10 MB answer, the SSRF refusals, and the daily job through the real queue.
 */

const TEN_MB = 10 * 1024 * 1024;
let server: http.Server;
let base: string;
/** Requests the server saw, as "METHOD /path". */
const seen: string[] = [];
let connections = 0;
/** Bytes the 10 MB route managed to write before the client hung up. */
let bigBytesWritten = 0;
const hanging = new Set<http.ServerResponse>();

function route(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = request.url ?? "/";
  seen.push(`${request.method} ${url}`);
  const redirect = (status: number, location: string) => {
    response.writeHead(status, { location });
    response.end();
  };
  const chain = /^\/chain\/(\d+)$/.exec(url);
  if (chain) {
    const left = Number(chain[1]);
    return left === 0 ? response.end("arrived") : redirect(302, `/chain/${left - 1}`);
  }
  switch (url) {
    case "/":
    case "/ok":
    case "/shop-home":
      response.writeHead(200, { "content-type": "text/html" });
      return response.end("<p>fine</p>");
    case "/gone404":
      response.writeHead(404);
      return response.end("not here");
    case "/gone410":
      response.writeHead(410);
      return response.end("gone");
    case "/no-head":
      response.writeHead(request.method === "HEAD" ? 405 : 200);
      return response.end();
    case "/to-root":
      return redirect(302, "/");
    case "/to-store":
      return redirect(301, `${base}/shop-home`);
    case "/to-private":
      return redirect(302, "http://10.0.0.5/admin");
    case "/loop-a":
      return redirect(302, "/loop-b");
    case "/loop-b":
      return redirect(302, "/loop-a");
    case "/hang":
      hanging.add(response);
      return;
    case "/big": {
      if (request.method === "HEAD") {
        response.writeHead(405);
        return response.end();
      }
      response.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const write = () => {
        while (bigBytesWritten < TEN_MB) {
          bigBytesWritten += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", write);
        }
        response.end();
      };
      response.on("close", () => undefined);
      return write();
    }
    default:
      response.writeHead(500);
      return response.end();
  }
}

/** Tests' settings: loopback allowed (the local server), short timeouts. */
const LOCAL: Partial<LinkCheckSettings> = {
  allowLoopback: true,
  connectTimeoutMs: 2_000,
  answerTimeoutMs: 1_500,
};

beforeAll(async () => {
  server = http.createServer(route);
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of hanging) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("checkLink", () => {
  it("answers ok for a 200, refreshing nothing by itself", async () => {
    const result = await checkLink(`${base}/ok`, { settings: LOCAL });
    expect(result).toMatchObject({ outcome: "ok", httpStatus: 200, redirects: 0 });
    expect(seen).toContain("HEAD /ok");
  });

  it("flags 404 and 410, confirmed with a GET after the HEAD", async () => {
    seen.length = 0;
    expect(await checkLink(`${base}/gone404`, { settings: LOCAL })).toMatchObject({
      outcome: "not_found",
      httpStatus: 404,
    });
    expect(seen).toEqual(["HEAD /gone404", "GET /gone404"]);
    expect(await checkLink(`${base}/gone410`, { settings: LOCAL })).toMatchObject({
      outcome: "not_found",
      httpStatus: 410,
    });
  });

  it("uses GET when HEAD is refused", async () => {
    seen.length = 0;
    expect(await checkLink(`${base}/no-head`, { settings: LOCAL })).toMatchObject({
      outcome: "ok",
      httpStatus: 200,
    });
    expect(seen).toEqual(["HEAD /no-head", "GET /no-head"]);
  });

  it("flags a redirect to the store's home page: the store's link, or the bare origin", async () => {
    const toStore = await checkLink(`${base}/to-store`, {
      storeLink: `${base}/shop-home/`,
      settings: LOCAL,
    });
    expect(toStore).toMatchObject({
      outcome: "redirected_home",
      finalUrl: `${base}/shop-home`,
      redirects: 1,
    });
    const toRoot = await checkLink(`${base}/to-root`, { storeLink: null, settings: LOCAL });
    expect(toRoot).toMatchObject({ outcome: "redirected_home", finalUrl: `${base}/` });
    // The same page reached with no redirect is just the page.
    expect(
      await checkLink(`${base}/shop-home`, { storeLink: `${base}/shop-home`, settings: LOCAL }),
    ).toMatchObject({ outcome: "ok" });
  });

  it("follows at most 5 redirects, and stops a loop", async () => {
    expect(await checkLink(`${base}/chain/5`, { settings: LOCAL })).toMatchObject({
      outcome: "ok",
      redirects: 5,
    });
    const tooMany = await checkLink(`${base}/chain/6`, { settings: LOCAL });
    expect(tooMany).toMatchObject({ outcome: "failed", httpStatus: 302, redirects: 5 });
    expect(tooMany.detail).toBe("More than 5 redirects.");
    const loop = await checkLink(`${base}/loop-a`, { settings: LOCAL });
    expect(loop.outcome).toBe("failed");
    expect(loop.detail).toMatch(/loop/);
  });

  it("gives up on a server that never answers, after its timeout", async () => {
    const started = Date.now();
    const result = await checkLink(`${base}/hang`, { settings: LOCAL });
    expect(result).toMatchObject({ outcome: "failed", httpStatus: null });
    expect(result.detail).toBe("No complete answer within 1.5 s.");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("reads a few kB of a 10 MB answer, not all of it", async () => {
    bigBytesWritten = 0;
    const result = await checkLink(`${base}/big`, { settings: LOCAL });
    expect(result).toMatchObject({ outcome: "ok", httpStatus: 200 });
    // Let the server notice the closed socket.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bigBytesWritten).toBeLessThan(TEN_MB / 2);
  });
});

describe("server-side request forgery", () => {
  it("refuses loopback and private addresses without connecting, with the switch off", async () => {
    const before = connections;
    seen.length = 0;
    const loopback = await checkLink(`${base}/ok`);
    expect(loopback).toMatchObject({ outcome: "blocked", httpStatus: null });
    expect(loopback.detail).toBe("Not fetched: 127.0.0.1 is a private or reserved address.");
    const privateNet = await checkLink("http://10.1.2.3/deal");
    expect(privateNet).toMatchObject({ outcome: "blocked" });
    expect(privateNet.detail).toBe("Not fetched: 10.1.2.3 is a private or reserved address.");
    expect(connections).toBe(before);
    expect(seen).toEqual([]);
  });

  it("refuses a name that resolves to a private address, and a redirect into one", async () => {
    const resolve = async () => [{ address: "192.168.1.20", family: 4 }];
    const named = await checkLink("https://shop.example/deal", { resolve });
    expect(named.outcome).toBe("blocked");
    expect(named.detail).toBe(
      "Not fetched: shop.example resolves to 192.168.1.20, a private or reserved address.",
    );
    // Any one blocked address among several refuses the host.
    const mixed = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "::1", family: 6 },
    ];
    expect((await checkLink("https://shop.example/deal", { resolve: mixed })).outcome).toBe(
      "blocked",
    );
    expect((await checkLink("http://localhost/deal")).outcome).toBe("blocked");
    // A public page that redirects inward: the hop is refused before it connects.
    const inward = await checkLink(`${base}/to-private`, { settings: LOCAL });
    expect(inward).toMatchObject({ outcome: "blocked", finalUrl: "http://10.0.0.5/admin" });
    expect(inward.detail).toBe("Not fetched: 10.0.0.5 is a private or reserved address.");
  });

  it("refuses other schemes and odd ports", async () => {
    expect((await checkLink("ftp://shop.example/deal")).detail).toBe(
      "Not fetched: only http and https links are checked, not ftp:.",
    );
    expect((await checkLink("file:///etc/passwd")).outcome).toBe("blocked");
    const resolve = async () => [{ address: "93.184.215.14", family: 4 }];
    expect((await checkLink("http://shop.example:6379/", { resolve })).detail).toBe(
      "Not fetched: port 6379 is not a web port.",
    );
  });

  it("knows the blocked ranges, IPv4-mapped IPv6 included", () => {
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fe80::1",
      "fd00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "::ffff:a9fe:a9fe",
      "64:ff9b::a00:1",
    ]) {
      expect(isAllowedAddress(address), address).toBe(false);
    }
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]) {
      expect(isAllowedAddress(address), address).toBe(true);
    }
    expect(isAllowedAddress("127.0.0.1", true)).toBe(true);
    expect(isAllowedAddress("10.0.0.1", true)).toBe(false);
  });

  it("connects to the address it checked, whatever the name resolves to later", async () => {
    let lookups = 0;
    // The first answer is checked and pinned; a rebinding second answer is never asked for.
    const resolve = async () =>
      ++lookups === 1
        ? [{ address: "127.0.0.1", family: 4 }]
        : [{ address: "10.9.9.9", family: 4 }];
    seen.length = 0;
    const url = `http://rebind.test:${new URL(base).port}/no-head`;
    expect(await checkLink(url, { resolve, settings: LOCAL })).toMatchObject({ outcome: "ok" });
    expect(lookups).toBe(1);
    expect(seen).toEqual(["HEAD /no-head", "GET /no-head"]);
  });
});

describe("planning the daily checks", () => {
  it("spaces checks of one store (or one host, for deals with no store) apart, newest first", () => {
    const plan = planLinkChecks([
      { id: 9, store_id: 1, link: "https://a.example/1" },
      { id: 8, store_id: 2, link: "https://b.example/1" },
      { id: 7, store_id: 1, link: "https://a.example/2" },
      { id: 6, store_id: null, link: "https://www.c.example/1" },
      { id: 5, store_id: null, link: "https://c.example/2" },
      { id: 4, store_id: 1, link: "https://a.example/3" },
    ]);
    expect(plan).toEqual([
      { post_id: 9, startAfterSeconds: 0 },
      { post_id: 8, startAfterSeconds: 0 },
      { post_id: 7, startAfterSeconds: STORE_SPACING_SECONDS },
      { post_id: 6, startAfterSeconds: 0 },
      { post_id: 5, startAfterSeconds: STORE_SPACING_SECONDS },
      { post_id: 4, startAfterSeconds: 2 * STORE_SPACING_SECONDS },
    ]);
  });
});

describe("the daily link check job", () => {
  const clock = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      seed: "none",
      jobs: true,
      now: () => clock,
      env: { LINK_CHECK_ALLOW_LOOPBACK: "on" },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function store(slug: string, link: string) {
    return t.deps.db
      .insertInto("stores")
      .values({ title: slug, slug, link })
      .returning("id")
      .executeTakeFirstOrThrow();
  }

  it("checks live deals through the queue: refreshes, flags for moderators, skips the expired", async () => {
    const db = t.deps.db;
    const poster = await createTestUser(db);
    const dayAgo = new Date(clock.getTime() - 24 * 3600 * 1000);
    const deal = async (storeSlug: string, path: string, extra: object = {}) =>
      insertPost(db, {
        user_id: poster,
        store_id: (await store(storeSlug, `${base}/shop-home`)).id,
        link: `${base}${path}`,
        created_at: dayAgo,
        updated_at: dayAgo,
        ...extra,
      });
    const working = await deal("store-ok", "/ok");
    const dead = await deal("store-dead", "/gone404");
    const moved = await deal("store-moved", "/to-store");
    const expired = await deal("store-expired", "/ok", {
      expires_at: new Date(clock.getTime() - 1000),
    });
    const hidden = await deal("store-hidden", "/ok", { status: "hidden" });

    await t.jobs.send(linkCheckSweepJob, {});
    await waitForJobs(t.jobs, { timeoutMs: 30_000 });

    const checks = await db.selectFrom("link_checks").selectAll().orderBy("post_id").execute();
    expect(checks.map((c) => [c.post_id, c.outcome, c.http_status])).toEqual([
      [working.id, "ok", 200],
      [dead.id, "not_found", 404],
      [moved.id, "redirected_home", 200],
    ]);
    expect(checks.every((c) => c.checked_at.getTime() === clock.getTime())).toBe(true);

    const verified = await db
      .selectFrom("posts")
      .select(["id", "last_verified_at", "last_verified_by"])
      .where("id", "in", [working.id, dead.id, expired.id, hidden.id])
      .orderBy("id")
      .execute();
    expect(verified.map((v) => [v.id, v.last_verified_by, v.last_verified_at.getTime()])).toEqual([
      [working.id, "link_check", clock.getTime()],
      [dead.id, "posted", dayAgo.getTime()],
      [expired.id, "posted", dayAgo.getTime()],
      [hidden.id, "posted", dayAgo.getTime()],
    ]);

    const reports = await db
      .selectFrom("reports")
      .select(["item_type", "item_id", "reporter_id", "reason", "status", "note"])
      .orderBy("item_id")
      .execute();
    expect(reports).toHaveLength(2);
    expect(reports.map((r) => r.item_id).sort()).toEqual([dead.unique_id, moved.unique_id].sort());
    for (const report of reports) {
      expect(report).toMatchObject({
        item_type: "d",
        reporter_id: null,
        reason: "expired",
        status: "open",
      });
    }
    expect(reports.find((r) => r.item_id === dead.unique_id)!.note).toBe(
      `Automatic link check: The store answered 404 (Not Found). Link: ${base}/gone404`,
    );

    // A second check of the same dead deal does not report it again.
    await t.jobs.send(linkCheckJob, { post_id: dead.id });
    await waitForJobs(t.jobs, { timeoutMs: 30_000 });
    expect(
      await db.selectFrom("reports").select("id").where("item_id", "=", dead.unique_id).execute(),
    ).toHaveLength(1);

    // The moderators see it in their queue, reported by the site.
    const moderatorId = await createTestUser(db);
    await db
      .updateTable("users")
      .set({ role: "moderator" })
      .where("id", "=", moderatorId)
      .execute();
    const moderator = new TestClient(t.app);
    await moderator.signInAs(db, moderatorId);
    const queue = await moderator.get("/api/admin/reports");
    expect(queue.statusCode).toBe(200);
    const item = queue
      .json()
      .response.items.find((i: { item_id: string }) => i.item_id === dead.unique_id);
    expect(item).toMatchObject({
      item_type: "d",
      reports: 1,
      reasons: [{ reason: "expired", count: 1 }],
    });
    expect(item.notes[0].reporter_name).toBe(SITE_REPORTER);

    // A moderator's decision closes the site's report; nobody is notified of it as a reporter.
    const decided = await moderator.post("/api/admin/moderate", {
      item_type: "d",
      item_id: dead.unique_id,
      action: "remove",
      reason: "The store took the page down.",
    });
    expect(decided.statusCode).toBe(200);
    const open = await db
      .selectFrom("reports")
      .select("id")
      .where("item_id", "=", dead.unique_id)
      .where("status", "=", "open")
      .execute();
    expect(open).toEqual([]);
  });
});
