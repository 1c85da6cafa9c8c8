import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureBodySchema } from "../../server/api/errors.ts";
import { apiRoutes } from "../../server/api/route.ts";
import { API_CALLS, send, startApiWorld, type ApiWorld } from "./api-calls.ts";
import { textFields } from "./text-fields.ts";

/**
 * The malformed-input fuzz of every door (docs/decisions/0021): the values, the tally of answers,
 * and the /api pass. The calls are split over two test files and the pages are a third, so that the
 * test workers share the work (docs/decisions/0055).
 */

const HUGE_TEXT = "x".repeat(100_000);

/**
 * Lists and objects where a call reads text: `String(value)` throws for the first two (JSON has no
 * functions, so an object whose toString works cannot be sent), the others are nested. Every text
 * field of every call answers them 422, naming the field (fuzzApiCalls).
 */
const NOT_TEXT: unknown[] = [
  { toString: 1 },
  { toString: 1, valueOf: 1 },
  [[{ toString: 1 }], []],
  { a: { b: [1, { c: null }] } },
];

/** Values no form sends: wrong types, extremes, control characters, injections. */
export const MALFORMED: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.5,
  1e21,
  -1e21,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  "",
  " ",
  "\t\n",
  "abc",
  "0",
  "-1",
  "1.5",
  "1e309",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x1F",
  "1,5",
  "१२",
  "99999999999999999999999999",
  "9".repeat(5000),
  HUGE_TEXT,
  "a\u0000b",
  "\u0000",
  "%00",
  "a\u0001b",
  "\u001b[31mred",
  "\u007f",
  "\u0085",
  "line\r\nbreak",
  "\u2028",
  "\u202eevil",
  "\ud800",
  "\ufeff",
  "💥",
  "<script>alert(1)</script>",
  "' OR '1'='1' --",
  "../../etc/passwd",
  "${7*7}{{7*7}}",
  "true",
  "null",
  "[]",
  [],
  [1, 2],
  ["a"],
  [null],
  {},
  { $gt: "" },
  JSON.parse('{"__proto__": {"polluted": 1}}'),
  ...NOT_TEXT,
];

/**
 * The lists and objects a text field must refuse with 422. A `__proto__` key is not among them: the
 * JSON parser refuses the whole body (400) before any field is read.
 */
const REFUSED_AS_NOT_TEXT = new Set(
  MALFORMED.filter(
    (value) => typeof value === "object" && value !== null && !Object.hasOwn(value, "__proto__"),
  ),
);

/** An intended 503 is a part the call needs being away (Payments not configured, mail down). */
const isFault = (status: number) => status >= 500 && status !== 503;

/** Answers per status, and the faults (a 5xx other than 503), of one test file's requests. */
export class FuzzTally {
  readonly statuses = new Map<number, number>();
  readonly faults: string[] = [];

  constructor(readonly door: "api" | "pages") {}

  count(status: number, what: string, body: string) {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (isFault(status)) this.faults.push(`${what} → ${status} ${body.slice(0, 200)}`);
  }

  figures(): string {
    const counts = [...this.statuses].sort(([a], [b]) => a - b);
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    return `${this.door}: ${total} requests (${counts.map(([s, n]) => `${s}: ${n}`).join(", ")})`;
  }
}

function describeValue(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? "");
  return text.length > 40 ? `${text.slice(0, 40)}…(${text.length})` : text;
}

/**
 * Sends every malformed value as each field (and as the whole body) of every call in `routes`, and
 * as `?page` of the GET calls: no answer may be a fault, and every refusal has the call's declared
 * failure shape. A list or an object in a text field of the call's schema (textFields) must answer
 * 422 naming that field; the text fields a valid request leaves out get the NOT_TEXT values too.
 */
export async function fuzzApiCalls(
  world: ApiWorld,
  routes: readonly (typeof apiRoutes)[number][],
  tally: FuzzTally,
) {
  const badShapes: string[] = [];
  const notRefused: string[] = [];
  for (const route of routes) {
    const call = `${route.method} ${route.url}`;
    const url = `/api${route.url}`;
    const failureShape = failureBodySchema(route.failure);
    const fields = Object.keys((await API_CALLS[call]!(world)).body ?? { page: 1 });
    const text = textFields(route);
    const targets = route.method === "GET" ? ["?page"] : ["(body)", ...fields];
    const cases = [
      ...targets.map((target) => [target, MALFORMED] as const),
      ...text.filter((field) => !fields.includes(field)).map((field) => [field, NOT_TEXT] as const),
    ];
    for (const [target, values] of cases) {
      for (const value of values) {
        const request = await API_CALLS[call]!(world);
        const response =
          target === "?page"
            ? await request.client.get(`${url}?page=${encodeParameter(value)}`)
            : await send(
                route.method,
                url,
                request,
                target === "(body)" ? value : { ...request.body, [target]: value },
              );
        const what = `${call} ${target}=${describeValue(value)}`;
        tally.count(response.statusCode, what, response.body);
        if (response.statusCode >= 400 && response.statusCode < 500) {
          const checked = failureShape.safeParse(response.json());
          if (!checked.success) badShapes.push(`${what} → ${response.body.slice(0, 200)}`);
        }
        if (
          text.includes(target) &&
          REFUSED_AS_NOT_TEXT.has(value) &&
          (response.statusCode !== 422 || !(response.json() as FailureBody).errors?.[target])
        ) {
          notRefused.push(`${what} → ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
      }
    }
  }
  expect(tally.faults).toEqual([]);
  expect(badShapes).toEqual([]);
  expect(notRefused).toEqual([]);
}

type FailureBody = { errors?: Record<string, string> };

/**
 * One test file's share of the /api pass: every other call, from the first (`half` 0) or the
 * second (1), on a world of its own.
 */
export function fuzzApiHalf(half: 0 | 1) {
  const tally = new FuzzTally("api");
  const world = fuzzWorld(tally, `fuzz, /api half ${half + 1} of 2`);
  describe("malformed input", () => {
    it(
      `never breaks an /api call: every field and the whole body (half ${half + 1} of the calls)`,
      () =>
        fuzzApiCalls(
          world(),
          apiRoutes.filter((_, i) => i % 2 === half),
          tally,
        ),
      30 * 60_000,
    );
  });
}

/**
 * The world of one fuzz test file (it serves pages too, so it needs the production build): started
 * before the file's tests, closed after them with the file's tally printed.
 */
export function fuzzWorld(tally: FuzzTally, label: string): () => ApiWorld {
  let world: ApiWorld | undefined;
  beforeAll(async () => {
    world = await startApiWorld({ pages: true });
  });
  afterAll(async () => {
    console.info(`${label}: ${tally.figures()}`);
    await world?.close();
  });
  return () => world!;
}

/** A value as a URL carries it: percent-encoded UTF-8 bytes (a lone surrogate as U+FFFD). */
export function encodeParameter(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}
