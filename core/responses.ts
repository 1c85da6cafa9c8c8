import { z } from "zod";

/**
 * The pieces every answer of the JSON API is built from: the spec's `status: 'true'` envelope, its
 * dates and its paginations. Each feature's answers live in `core/<feature>/responses.ts`, beside
 * the presenter that builds them, in the spec's field names and spellings. Objects are strict: a
 * field a presenter sends that is not listed fails the contract test
 * (tests/integration/api-contract.test.ts), and a listed field it misses fails the type check of
 * the route's handler. /api/docs shows these schemas; the browser reads their types through
 * core/api-table.ts.
 */

export const TRUE = z.literal("true");
export const isoDateTime = z.string().describe("ISO 8601 date and time");
export const count = z.number().int();

export const ListPagination = z.strictObject({
  total: z.number().int(),
  per_page: z.number().int(),
  current_page: z.number().int(),
  last_page: z.number().int(),
});

export const message = { status: TRUE, message: z.string() };

/** `{ status: 'true', message }`: calls whose success is a sentence. */
export const MessageResponse = z.strictObject(message);

/** `{ status: 'true', message }`: a console action whose success is a sentence. */
export const ConsoleDoneResponse = MessageResponse;

/** The console's lists and a profile's deals: a page position without the page size. */
export const ShortPagination = z.strictObject({
  total: count,
  current_page: count,
  last_page: count,
});

/** `GET /api/health`: liveness for load balancers. */
export const HealthResponse = z
  .strictObject({ status: z.enum(["ok", "unavailable"]), database: z.enum(["up", "down"]) })
  .describe("Liveness; more fields describe the parts the server depends on");
