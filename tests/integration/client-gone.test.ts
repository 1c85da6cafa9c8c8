import type { FastifyRequest } from "fastify";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { isClientGone } from "../../server/client-gone.ts";

interface LogLine {
  level: number;
  msg: string;
}

let t: TestApp;
let port: number;
const lines: LogLine[] = [];

beforeAll(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: "info" },
    logStream: { write: (line) => void lines.push(JSON.parse(line) as LogLine) },
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
});

/** Asks for the home lists, compressed, and hangs up early, at a moment that varies with `attempt`. */
function leaveEarly(attempt: number): Promise<void> {
  return new Promise((resolve) => {
    const request = http.request({
      host: "127.0.0.1",
      port,
      path: "/api/home",
      method: "POST",
      headers: { "content-type": "application/json", "accept-encoding": "gzip, br" },
    });
    const hangUp = () => {
      request.destroy();
      resolve();
    };
    request.on("error", () => resolve());
    request.on("response", (response) => response.once("data", hangUp));
    request.end("{}");
    setTimeout(hangUp, attempt % 10);
  });
}

describe("a client that hangs up before its answer is sent", () => {
  it("is logged as information, not as a failed request", async () => {
    const gone = () => lines.filter((l) => l.msg.startsWith("the client closed")).length;
    for (let attempt = 0; attempt < 300 && gone() < 3; attempt++) await leaveEarly(attempt);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(gone()).toBeGreaterThanOrEqual(3);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  });

  it("is told apart from the same error code on a connection that is still open", () => {
    const premature = Object.assign(new Error("Premature close"), {
      code: "ERR_STREAM_PREMATURE_CLOSE",
    });
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    const request = (destroyed: boolean) =>
      ({ raw: { socket: { destroyed } } }) as unknown as FastifyRequest;
    expect(isClientGone(premature, request(true))).toBe(true);
    expect(isClientGone(reset, request(true))).toBe(true);
    // A database connection reset while the visitor still waits is a failure to report.
    expect(isClientGone(reset, request(false))).toBe(false);
    expect(isClientGone(new TypeError("a bug"), request(true))).toBe(false);
  });
});
