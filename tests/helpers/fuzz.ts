import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureBodySchema } from "../../server/api/errors.ts";
import { apiRoutes } from "../../server/api/route.ts";
import { Random } from "../../db/demo/random.ts";
import { API_CALLS, send, startApiWorld, type ApiWorld } from "./api-calls.ts";
import { textFields } from "./text-fields.ts";

/**
 * The malformed-input fuzz of every door (docs/decisions/0021): the values, the tally of answers,
 * and the /api pass. The calls are split over two test files and the pages are a third, so that the
 * test workers share the work (docs/decisions/0055); each file sends a fixed number of requests, the
 * same on every run (withinBudget, docs/decisions/0077).
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

/**
 * Values no form sends, by kind: wrong types, extremes, control characters, injections. A budgeted
 * pass (fuzzCases) sends each route at least one value of every kind.
 */
export const MALFORMED_KINDS: Record<string, unknown[]> = {
  "null and booleans": [null, true, false],
  "small numbers": [0, -1, 1.5, -0.5],
  "huge numbers": [1e21, -1e21, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER],
  "blank text": ["", " ", "\t\n"],
  "numbers as text": [
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
  ],
  "long text": ["9".repeat(5000), HUGE_TEXT],
  "control characters": [
    "a\u0000b",
    "\u0000",
    "%00",
    "a\u0001b",
    "\u001b[31mred",
    "\u007f",
    "\u0085",
    "line\r\nbreak",
  ],
  "odd Unicode": ["\u2028", "\u202eevil", "\ud800", "\ufeff", "💥"],
  "injections and words": [
    "abc",
    "<script>alert(1)</script>",
    "' OR '1'='1' --",
    "../../etc/passwd",
    "${7*7}{{7*7}}",
    "true",
    "null",
    "[]",
  ],
  lists: [[], [1, 2], ["a"], [null]],
  objects: [{}, { $gt: "" }, JSON.parse('{"__proto__": {"polluted": 1}}')],
  "not text": NOT_TEXT,
};

/** Every malformed value, of every kind. */
export const MALFORMED: unknown[] = Object.values(MALFORMED_KINDS).flat();

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

/** One fuzz request: a value put in one place (a field, the whole body, `?page`, a page's slot). */
export interface FuzzCase<Where> {
  where: Where;
  target: string;
  value: unknown;
}

/**
 * The cases one test file sends out of all of them: those it must (`required`), then others drawn
 * from the rest until there are `budget`. The draw is seeded by `label`, so every run sends the
 * same requests; a different label would draw a different sample.
 */
export function withinBudget<T>(all: T[], required: Set<T>, budget: number, label: string): T[] {
  if (required.size > budget) {
    throw new Error(
      `${label}: ${required.size} required fuzz cases exceed the budget of ${budget}`,
    );
  }
  const rest = new Random(`fuzz ${label}`).shuffle(all.filter((c) => !required.has(c)));
  const chosen = new Set([...required, ...rest.slice(0, budget - required.size)]);
  return all.filter((c) => chosen.has(c));
}

/**
 * Picks, for each kind of malformed value, one case of `cases` holding a value of that kind (any
 * target, at random), and one case for each target: every place gets something, and every kind
 * goes everywhere the cases go.
 */
export function oneOfEachKind<T extends FuzzCase<unknown>>(cases: T[], random: Random): T[] {
  const picked: T[] = [];
  for (const values of Object.values(MALFORMED_KINDS)) {
    const ofKind = cases.filter((c) => values.includes(c.value));
    if (ofKind.length) picked.push(random.pick(ofKind));
  }
  for (const target of new Set(cases.map((c) => c.target))) {
    if (!picked.some((c) => c.target === target)) {
      picked.push(random.pick(cases.filter((c) => c.target === target)));
    }
  }
  return picked;
}

/**
 * Requests of each /api fuzz file (half the calls): about an eighth of every field × every value
 * (12,240 and 12,660 requests, three to four minutes a file: docs/decisions/0077).
 */
export const API_FUZZ_BUDGET = 1_600;

/**
 * Sends malformed values as fields (and as the whole body) of the calls in `routes`, and as
 * `?page` of the GET calls: no answer may be a fault, and every refusal has the call's declared
 * failure shape. A list or an object in a text field of the call's schema (textFields) must answer
 * 422 naming that field; the text fields a valid request leaves out get the NOT_TEXT values too.
 *
 * Of every field × every value, `budget` requests are sent (withinBudget): each call gets a value
 * of every kind and each of its fields at least one value, each text field at least one list or
 * object, and the rest is a seeded sample.
 */
export async function fuzzApiCalls(
  world: ApiWorld,
  routes: readonly (typeof apiRoutes)[number][],
  tally: FuzzTally,
  { budget, label }: { budget: number; label: string },
) {
  type Route = (typeof apiRoutes)[number];
  const random = new Random(`fuzz ${label} required`);
  const all: FuzzCase<Route>[] = [];
  const required = new Set<FuzzCase<Route>>();
  const textOf = new Map<Route, string[]>();
  for (const route of routes) {
    const call = `${route.method} ${route.url}`;
    const fields = Object.keys((await API_CALLS[call]!(world)).body ?? { page: 1 });
    const text = textFields(route);
    textOf.set(route, text);
    const targets = route.method === "GET" ? ["?page"] : ["(body)", ...fields];
    const cases = [
      ...targets.flatMap((target) => MALFORMED.map((value) => ({ where: route, target, value }))),
      ...text
        .filter((field) => !fields.includes(field))
        .flatMap((field) => NOT_TEXT.map((value) => ({ where: route, target: field, value }))),
    ];
    all.push(...cases);
    for (const c of oneOfEachKind(cases, random)) required.add(c);
    for (const field of text) {
      const refusals = cases.filter((c) => c.target === field && REFUSED_AS_NOT_TEXT.has(c.value));
      if (!refusals.some((c) => required.has(c))) required.add(random.pick(refusals));
    }
  }

  const badShapes: string[] = [];
  const notRefused: string[] = [];
  for (const { where: route, target, value } of withinBudget(all, required, budget, label)) {
    const call = `${route.method} ${route.url}`;
    const url = `/api${route.url}`;
    const text = textOf.get(route)!;
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
      const checked = failureBodySchema(route.failure).safeParse(response.json());
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
  const label = `/api half ${half + 1} of 2`;
  const world = fuzzWorld(tally, `fuzz, ${label}`);
  describe("malformed input", () => {
    it(
      `never breaks an /api call: every field and the whole body (half ${half + 1} of the calls)`,
      () =>
        fuzzApiCalls(
          world(),
          apiRoutes.filter((_, i) => i % 2 === half),
          tally,
          { budget: API_FUZZ_BUDGET, label },
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
