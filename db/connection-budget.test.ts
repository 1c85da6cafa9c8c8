import { describe, expect, it } from "vitest";
import {
  checkConnectionBudget,
  defaultPoolSize,
  describeConnections,
  processConnections,
  type ConnectionLimits,
} from "./connection-budget.ts";

const postgresDefaults: ConnectionLimits = {
  maxConnections: 100,
  superuserReserved: 3,
  reserved: 0,
};

describe("each process's connections", () => {
  it("counts a server's pool, LISTEN and readiness; pg-boss shares the pool", () => {
    expect(processConnections(10)).toEqual({
      pool: 10,
      jobs: 0,
      listen: 1,
      readiness: 1,
      total: 12,
    });
    expect(describeConnections(processConnections(10))).toBe(
      "opens up to 12 connections to PostgreSQL: pool 10, jobs 0 (pg-boss shares the pool), listen 1, readiness 1",
    );
  });

  it("counts a worker's pool, LISTEN (it announces its jobs' changes) and readiness", () => {
    expect(processConnections(4).total).toBe(6);
    expect(describeConnections(processConnections(4))).toBe(
      "opens up to 6 connections to PostgreSQL: pool 4, jobs 0 (pg-boss shares the pool), listen 1, readiness 1",
    );
  });
});

describe("the default pool size", () => {
  // What the default promises: 2 machines × processes × per process + 1 worker ≤ 100 − 3 − 2.
  const siteTotal = (processes: number, pool: number) =>
    2 * processes * processConnections(pool).total + processConnections(pool).total;

  it.each([1, 2, 3, 4, 6, 8, 12])(
    "is the largest that fits for %i processes a machine, at most 10",
    (processes) => {
      const pool = defaultPoolSize(processes);
      expect(siteTotal(processes, pool)).toBeLessThanOrEqual(95);
      if (pool < 10) expect(siteTotal(processes, pool + 1)).toBeGreaterThan(95);
      else expect(pool).toBe(10);
    },
  );

  it("goes no lower than 1 when nothing fits, for the start's check to say so", () => {
    expect(defaultPoolSize(16)).toBe(1);
    expect(siteTotal(16, 1)).toBeGreaterThan(95);
  });
});

describe("the check against max_connections", () => {
  it("says how many machines of this size fit when one does", () => {
    const check = checkConnectionBudget({
      limits: postgresDefaults,
      processes: 4,
      perProcess: processConnections(8),
      kind: "server process",
    });
    expect(check).toMatchObject({ available: 95, needed: 40, machinesFit: 2, exceeds: false });
    expect(check.line).toBe(
      'connection budget: this machine\'s 4 server processes (4 × 10) could open 40 connections; PostgreSQL allows 95 (max_connections 100 − 3 superuser_reserved_connections − 2 kept for an admin session or a backup): 2 machines of this size fit, fewer with `npm run worker` processes beside them (docs/deploy.md, "Connections")',
    );
  });

  it("warns, saying what to do, when this machine alone could exceed it", () => {
    const check = checkConnectionBudget({
      limits: { maxConnections: 100, superuserReserved: 3, reserved: 5 },
      processes: 8,
      perProcess: processConnections(10),
      kind: "server process",
    });
    expect(check).toMatchObject({ available: 90, needed: 96, machinesFit: 0, exceeds: true });
    expect(check.line).toBe(
      'connection budget: this machine\'s 8 server processes (8 × 12) could open 96 connections, more than PostgreSQL allows 90 (max_connections 100 − 3 superuser_reserved_connections − 5 reserved_connections − 2 kept for an admin session or a backup): lower DATABASE_POOL_SIZE (now 10) or WEB_CONCURRENCY, raise max_connections, or put PgBouncer in front (docs/deploy.md, "Connections")',
    );
  });

  it("fits exactly at the limit", () => {
    const check = checkConnectionBudget({
      limits: postgresDefaults,
      processes: 1,
      perProcess: processConnections(93),
      kind: "server process",
    });
    expect(check).toMatchObject({ needed: 95, machinesFit: 1, exceeds: false });
    expect(check.line).toContain("this server process (1 × 95) could open 95 connections;");
    expect(check.line).toContain(": 1 machine of this size fit");
  });

  it("speaks of workers for a worker, and not of WEB_CONCURRENCY", () => {
    const fits = checkConnectionBudget({
      limits: postgresDefaults,
      processes: 1,
      perProcess: processConnections(10),
      kind: "worker",
    });
    expect(fits.line).toContain("this worker (1 × 12) could open 12 connections;");
    expect(fits.line).toContain(": 7 workers like this one fit, fewer beside server processes");
    const tooMany = checkConnectionBudget({
      limits: { maxConnections: 20, superuserReserved: 3, reserved: 0 },
      processes: 1,
      perProcess: processConnections(20),
      kind: "worker",
    });
    expect(tooMany.exceeds).toBe(true);
    expect(tooMany.line).toContain("lower DATABASE_POOL_SIZE (now 20), raise max_connections");
  });
});
