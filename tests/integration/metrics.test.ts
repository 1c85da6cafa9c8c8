import path from "node:path";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XSRF_COOKIE } from "../../core/constants.ts";
import type { MailMessage } from "../../core/mail/mailer.ts";
import { sendMailJob } from "../../core/mail/queue.ts";
import { pageRouteLabels } from "../../server/metrics/page-routes.ts";
import { createTestApp, newestDealPath, type TestApp } from "../helpers/app.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { parseExposition, sampleValue, type Exposition } from "../helpers/prometheus.ts";

/*
 * GET /metrics (server/plugins/metrics.ts, docs/decisions/0094-metrics.md) on the production
 * build: every family, values that move with what the site does, and who may read them. The
 * summed scrape of several server processes is in processes.test.ts, the worker's in
 * worker.test.ts.
 */

const TOKEN = "metrics-token-for-the-test-0123456789abcdef";
/** A visitor who has been here before (the XSRF cookie): their page may be cached. */
const VISITOR = { [XSRF_COOKIE]: "returning-visitor-token-0123456789" };
const ELSEWHERE = "203.0.113.7";

describe("GET /metrics", () => {
  let t: TestApp;
  const sent: MailMessage[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      pages: true,
      jobs: true,
      mailer: { send: async (message) => void sent.push(message) },
      env: { METRICS_TOKEN: TOKEN },
    });
  }, 120_000);
  afterAll(() => t?.close());

  async function scrape(): Promise<Exposition> {
    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(response.body);
  }

  it("holds every family, in Prometheus's text format", async () => {
    const metrics = await scrape();
    expect(Object.fromEntries(metrics.types)).toMatchObject({
      chalkboard_http_requests_total: "counter",
      chalkboard_http_request_duration_seconds: "histogram",
      chalkboard_db_pool_connections_in_use: "gauge",
      chalkboard_db_pool_waiting: "gauge",
      chalkboard_jobs: "gauge",
      chalkboard_page_cache_requests_total: "counter",
      chalkboard_mail_total: "counter",
      process_cpu_user_seconds_total: "counter",
      process_resident_memory_bytes: "gauge",
      nodejs_eventloop_lag_seconds: "gauge",
    });
    for (const outcome of ["sent", "failed", "suppressed"]) {
      expect(
        metrics.samples.some(
          (s) => s.name === "chalkboard_mail_total" && s.labels.outcome === outcome,
        ),
      ).toBe(true);
    }
    expect(sampleValue(metrics, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("counts a call under its route template and status, with its duration", async () => {
    const route = { method: "GET", route: "/api/stores_list", status: "200" };
    const before = sampleValue(await scrape(), "chalkboard_http_requests_total", route);
    expect((await t.app.inject({ method: "GET", url: "/api/stores_list" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/stores_list?x=1" })).statusCode).toBe(
      200,
    );
    const after = await scrape();
    expect(sampleValue(after, "chalkboard_http_requests_total", route)).toBe(before + 2);
    expect(
      sampleValue(after, "chalkboard_http_request_duration_seconds_count", {
        method: "GET",
        route: "/api/stores_list",
      }),
    ).toBeGreaterThanOrEqual(2);
    // Never the raw URL.
    const routes = after.samples.map((s) => s.labels.route).filter(Boolean);
    expect(routes.some((r) => r!.includes("?"))).toBe(false);
  });

  it("counts a page by its React Router pattern, and the page cache's miss then hit", async () => {
    const deal = await newestDealPath(t);
    const label = { method: "GET", route: "/post/:uniqueId/:slug", status: "200" };
    const before = await scrape();
    const render = await t.app.inject({ method: "GET", url: deal, cookies: VISITOR });
    expect(render.statusCode).toBe(200);
    const hit = await t.app.inject({ method: "GET", url: deal, cookies: VISITOR });
    expect(hit.headers.etag, "the second request is served from the page cache").toBeTruthy();
    const after = await scrape();

    expect(sampleValue(after, "chalkboard_http_requests_total", label)).toBe(
      sampleValue(before, "chalkboard_http_requests_total", label) + 2,
    );
    const cache = (m: Exposition, outcome: string) =>
      sampleValue(m, "chalkboard_page_cache_requests_total", { outcome });
    expect(cache(after, "miss")).toBe(cache(before, "miss") + 1);
    expect(cache(after, "hit")).toBe(cache(before, "hit") + 1);
    // No slug or id is a label anywhere.
    const slug = deal.split("/").pop()!;
    expect(after.samples.some((s) => Object.values(s.labels).some((v) => v.includes(slug)))).toBe(
      false,
    );
  });

  it("counts a mail sent, and shows a job waiting in the queue by its kind", async () => {
    const mail = (m: Exposition) => sampleValue(m, "chalkboard_mail_total", { outcome: "sent" });
    const queued = (m: Exposition) =>
      sampleValue(m, "chalkboard_jobs", { kind: "mail.send", state: "queued" });
    const before = await scrape();

    await t.deps.mail.send({ to: "metrics@example.com", subject: "Hi", text: "Hi", html: "Hi" });
    await waitForJobs(t.jobs, { kind: sendMailJob });
    expect(sent.map((m) => m.to)).toContain("metrics@example.com");
    // A job for later stays queued.
    await t.jobs.send(
      sendMailJob,
      { to: "later@example.com", subject: "Later", text: "Later", html: "Later" },
      undefined,
      { startAfterSeconds: 3600 },
    );

    const after = await scrape();
    expect(mail(after)).toBe(mail(before) + 1);
    expect(queued(after)).toBe(queued(before) + 1);
    // Every kind and state has its series, at zero when it has no job.
    const series = after.samples.filter((s) => s.name === "chalkboard_jobs");
    for (const state of ["queued", "active", "failed"]) {
      expect(
        series.some((s) => s.labels.kind === "reputation.recompute" && s.labels.state === state),
      ).toBe(true);
    }
  });

  it("shows the database pool: connections in use and queries waiting", async () => {
    const metrics = await scrape();
    // The scrape's own read of the jobs has returned its connection.
    expect(sampleValue(metrics, "chalkboard_db_pool_waiting")).toBe(0);
    expect(sampleValue(metrics, "chalkboard_db_pool_connections_open")).toBeGreaterThanOrEqual(
      sampleValue(metrics, "chalkboard_db_pool_connections_in_use"),
    );
  });

  it("answers 404 to anyone but loopback or the bearer of METRICS_TOKEN, and is never stored", async () => {
    const ask = (remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: "GET", url: "/metrics", remoteAddress, headers });

    const open = await ask("127.0.0.1");
    expect(open.statusCode).toBe(200);
    expect(open.headers["cache-control"]).toBe("no-store");
    expect((await ask("::1")).statusCode).toBe(200);
    expect((await ask("::ffff:127.0.0.1")).statusCode).toBe(200);

    for (const refused of [
      await ask(ELSEWHERE),
      await ask("10.0.0.2"),
      // A reverse proxy on the same machine: loopback, but passing on someone else's request.
      await ask("127.0.0.1", { "x-forwarded-for": ELSEWHERE }),
      await ask("127.0.0.1", { forwarded: `for=${ELSEWHERE}` }),
      await ask(ELSEWHERE, { authorization: `Bearer ${TOKEN}x` }),
      await ask(ELSEWHERE, { authorization: `Bearer ${TOKEN.slice(0, -1)}` }),
      await ask(ELSEWHERE, { authorization: `Basic ${TOKEN}` }),
    ]) {
      expect(refused.statusCode).toBe(404);
      expect(refused.body).not.toContain("chalkboard_");
      expect(refused.headers["cache-control"]).toBe("no-store");
    }

    const withToken = await ask(ELSEWHERE, { authorization: `Bearer ${TOKEN}` });
    expect(withToken.statusCode).toBe(200);
    expect(withToken.body).toContain("chalkboard_http_requests_total");
    const throughProxy = await ask("127.0.0.1", {
      "x-forwarded-for": ELSEWHERE,
      authorization: `bearer ${TOKEN}`,
    });
    expect(throughProxy.statusCode).toBe(200);
  });

  it("answers every scrape afresh: no cache serves it", async () => {
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
      counts.push(
        sampleValue(await scrape(), "chalkboard_http_requests_total", {
          route: "/metrics",
          status: "200",
        }),
      );
    }
    expect(counts[1]).toBe(counts[0]! + 1);
    expect(counts[2]).toBe(counts[1]! + 1);
  });
});

describe("a page's route label", () => {
  it("is the pattern React Router's own matchRoutes finds, for every page of the build", async () => {
    const build = (await import(
      path.resolve(import.meta.dirname, "../../build/server/index.js")
    )) as ServerBuild;
    const manifest = Object.values(build.routes).filter((r) => r !== undefined);
    const childrenOf = (parentId: string | undefined): RouteObject[] =>
      manifest
        .filter((r) => r.parentId === parentId)
        .map(
          (r) =>
            ({
              path: r.path,
              index: r.index,
              caseSensitive: r.caseSensitive,
              ...(r.index ? {} : { children: childrenOf(r.id) }),
            }) as RouteObject,
        );
    const tree = childrenOf(undefined);
    /** What React Router matches: the matched routes' paths, joined. */
    const oracle = (pathname: string) => {
      const matches = matchRoutes(tree, pathname);
      if (!matches) return "(no page)";
      const parts = matches.map((m) => m.route.path).filter(Boolean);
      return `/${parts.join("/")}`.replace(/\/{2,}/g, "/");
    };

    // A path for every route: each parameter filled, a splat given two segments.
    const paths = new Set<string>(["/", "/nowhere/at/all", "/POST/1/a", "/store/", "/admin"]);
    const visit = (parentId: string | undefined, prefix: string) => {
      for (const route of manifest.filter((r) => r.parentId === parentId)) {
        const joined = [prefix, route.path ?? ""].filter(Boolean).join("/");
        paths.add(`/${joined.replace(/:[\w-]+/g, "x-1").replace(/\*/g, "a/b")}`);
        visit(route.id, joined);
      }
    };
    visit(undefined, "");
    expect(paths.size).toBeGreaterThan(40);

    const label = pageRouteLabels(build);
    for (const pathname of paths) {
      const expected = oracle(pathname);
      expect(label(pathname), pathname).toBe(expected);
      expect(label(`${pathname.replace(/\/$/, "") || "/_root"}.data?_routes=x`), pathname).toBe(
        pathname === "/" ? "/" : expected,
      );
    }
    expect(label("/post/12/some-deal")).toBe("/post/:uniqueId/:slug");
    expect(label("/_root.data")).toBe("/");
  });
});

describe("GET /metrics without METRICS_TOKEN", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: "none" });
  }, 60_000);
  afterAll(() => t?.close());

  it("is loopback's only: no bearer opens it", async () => {
    const ask = (remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: "GET", url: "/metrics", remoteAddress, headers });
    expect((await ask("127.0.0.1")).statusCode).toBe(200);
    expect((await ask(ELSEWHERE, { authorization: "Bearer " })).statusCode).toBe(404);
    expect((await ask(ELSEWHERE, { authorization: "Bearer undefined" })).statusCode).toBe(404);
  });
});
