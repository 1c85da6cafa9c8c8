import { fuzzApiHalf } from "../helpers/fuzz.ts";

/**
 * Malformed input at every /api door, half 1 of the calls (every other call): each field of a
 * valid request, the whole body and `?page`, replaced by values no form would send, within a fixed
 * budget of requests that gives every call each kind of value. No answer may be a 5xx other than
 * an intended 503, and every refusal has the call's declared failure shape (tests/helpers/fuzz.ts).
 * Half 2 is fuzz-api-2.test.ts, the pages fuzz.test.ts.
 */
fuzzApiHalf(0);
