import { afterAll, beforeAll, describe, it } from "vitest";
import { apiRoutes } from "../../server/api/route.ts";
import { startApiWorld, type ApiWorld } from "../helpers/api-calls.ts";
import { FuzzTally, fuzzApiCalls } from "../helpers/fuzz.ts";

/**
 * Malformed input at every /api door, second half of the calls (every other call, from the
 * second): each field of a valid request, the whole body and `?page`, replaced by values no form would
 * send (tests/helpers/fuzz.ts). No answer may be a 5xx other than an intended 503, and every refusal
 * has the call's declared failure shape. The other half is in fuzz-api-1.test.ts, the pages in
 * fuzz.test.ts. Needs the production build (`npm run build`), as the world serves pages.
 */

const tally = new FuzzTally("api");
let world: ApiWorld;
beforeAll(async () => {
  world = await startApiWorld({ pages: true });
});
afterAll(async () => {
  console.info(`fuzz 2 of 2: ${tally.figures()}`);
  await world?.close();
});

describe("malformed input", () => {
  it(
    "never breaks an /api call: every field and the whole body (second half of the calls)",
    () =>
      fuzzApiCalls(
        world,
        apiRoutes.filter((_, i) => i % 2 === 1),
        tally,
      ),
    30 * 60_000,
  );
});
