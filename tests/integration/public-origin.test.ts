import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/*
 * One origin, decided once (server/public-origin.ts, docs/decisions/0072-one-origin.md): no Host,
 * X-Forwarded-Host or request target can make the server render, or its page cache keep, another
 * page than the path asked for. Each poisoning request goes over a real socket (the HTTP parser's
 * own rules are part of it), then a plain request for the same path must get that path's page.
 */

/** A visitor who has been here before: carries the XSRF cookie, so pages set none and are kept. */
const COOKIE = `Cookie: ${XSRF_COOKIE}=returning-visitor-token-0123456789`;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the socket after this answer. */
  closed: boolean;
}

/**
 * Sends `head` (request line and header lines, without the blank line) and reads one answer; with
 * `untilClosed`, waits for the server to close the socket too.
 */
function raw(port: number, head: string, untilClosed = false): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled || (untilClosed && !closed)) return;
      const text = Buffer.concat(chunks).toString("utf8");
      const end = text.indexOf("\r\n\r\n");
      if (end === -1) {
        if (closed) reject(new Error(`no answer to ${head.split("\r\n")[0]}: ${text}`));
        return;
      }
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      let body = text.slice(end + 4);
      if (headers["transfer-encoding"] === "chunked") {
        if (!/(^|\r\n)0\r\n\r\n$/.test(body) && !closed) return;
        body = body.replace(/(?:^|\r\n)[0-9a-f]+\r\n/gi, "");
      } else if (headers["content-length"] !== undefined) {
        if (Buffer.byteLength(body) < Number(headers["content-length"]) && !closed) return;
      } else if (!closed) {
        return;
      }
      settled = true;
      socket.destroy();
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body, closed });
    };
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      finish(false);
    });
    socket.on("end", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("error", (error) => (settled ? undefined : reject(error)));
    socket.write(`${head}\r\n\r\n`);
  });
}

const titleOf = (body: string) => /<title>([^<]*)<\/title>/.exec(body)?.[1] ?? "(no title)";

describe("one origin: nothing a visitor sends changes the page another visitor sees", () => {
  let t: TestApp;
  let port: number;
  let storePath: string;
  let storeTitle: string;

  beforeAll(async () => {
    t = await createTestApp({ pages: true });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as net.AddressInfo).port;
    const store = await t.deps.db
      .selectFrom("stores")
      .select(["slug", "title"])
      .orderBy("id")
      .executeTakeFirstOrThrow();
    storePath = `/store/${store.slug}`;
    const answer = await raw(port, `GET ${storePath} HTTP/1.1\r\nHost: localhost\r\n${COOKIE}`);
    expect(answer.status).toBe(200);
    storeTitle = titleOf(answer.body);
    expect(storeTitle).toContain(store.title);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Drops every stored page, so that each case starts from a miss. */
  const clearPageCache = () => t.deps.changes.emit("settings");

  /** The plain request every visitor sends for `path`, and the page it must get. */
  async function expectOwnPage(path: string, title: string) {
    const plain = await raw(port, `GET ${path} HTTP/1.1\r\nHost: localhost:3000\r\n${COOKIE}`);
    expect(plain.status).toBe(200);
    expect(titleOf(plain.body)).toBe(title);
  }

  const poisonings: [string, (path: string) => string][] = [
    [
      "a path in Host",
      (path) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}/privacy-policy?\r\n${COOKIE}`,
    ],
    ["an empty Host", (path) => `GET ${path} HTTP/1.1\r\nHost: \r\n${COOKIE}`],
    ["no Host over HTTP/1.0", (path) => `GET ${path} HTTP/1.0\r\n${COOKIE}`],
    [
      "an absolute-form target with a path in Host",
      (path) =>
        `GET http://localhost:3000${path} HTTP/1.1\r\nHost: evil.example/privacy-policy?\r\n${COOKIE}`,
    ],
    [
      "a forwarded host from an untrusted address",
      (path) =>
        `GET ${path} HTTP/1.1\r\nHost: localhost:3000\r\nX-Forwarded-Host: evil.example/privacy-policy?\r\n${COOKIE}`,
    ],
    [
      "another site's name in Host",
      (path) => `GET ${path} HTTP/1.1\r\nHost: evil.example\r\n${COOKIE}`,
    ],
  ];

  for (const [name, request] of poisonings) {
    it(`${name}: the request gets its own path's page, and so does everyone after it`, async () => {
      clearPageCache();
      const poisoned = await raw(port, request(storePath));
      expect(poisoned.status, poisoned.body.slice(0, 300)).toBe(200);
      expect(titleOf(poisoned.body)).toBe(storeTitle);
      // No canonical link or share link names the host the request gave.
      expect(poisoned.body).not.toContain("evil.example");
      expect(poisoned.body).not.toContain(`127.0.0.1:${port}`);
      await expectOwnPage(storePath, storeTitle);
      // Twice: the second plain request is answered from the page cache.
      await expectOwnPage(storePath, storeTitle);
    });
  }

  it("links the page to PUBLIC_URL's origin whatever Host said", async () => {
    clearPageCache();
    const answer = await raw(port, `GET ${storePath} HTTP/1.1\r\nHost: evil.example\r\n${COOKIE}`);
    expect(answer.body).toContain(`<link rel="canonical" href="http://localhost:3000${storePath}"`);
  });

  it("serves an absolute-form target for its own path (RFC 9112 section 3.2.2)", async () => {
    clearPageCache();
    const answer = await raw(
      port,
      `GET http://localhost:3000${storePath} HTTP/1.1\r\nHost: localhost:3000\r\n${COOKIE}`,
    );
    expect(answer.status).toBe(200);
    expect(titleOf(answer.body)).toBe(storeTitle);
    const api = await raw(
      port,
      `GET http://localhost:3000/api/health HTTP/1.1\r\nHost: localhost:3000`,
    );
    expect(api.status).toBe(200);
  });

  it("answers a Host-less HTTP/1.0 request for / with the home page", async () => {
    const answer = await raw(port, `GET / HTTP/1.0`);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^text\/html/);
  });

  it("refuses an HTTP/1.1 request without Host with 400 and closes (RFC 9112 section 3.2)", async () => {
    const answer = await raw(port, `GET / HTTP/1.1`);
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe("close");
  });

  it("says Connection: close on a 431 for a target too long, as it closes the socket", async () => {
    const answer = await raw(port, `GET /${"a".repeat(20_000)} HTTP/1.1\r\nHost: localhost`, true);
    expect(answer.status).toBe(431);
    expect(answer.headers.connection).toBe("close");
    expect(answer.closed).toBe(true);
    expect(JSON.parse(answer.body)).toEqual({
      status: false,
      message: "Request Header Fields Too Large.",
    });
  });

  it("says Connection: close on a 400 for a malformed request", async () => {
    const answer = await raw(port, `GARBAGE`);
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe("close");
  });
});
