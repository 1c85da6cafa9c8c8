import type { z } from "zod";
import type { ApiTable } from "../../core/api-table.ts";
import { XSRF_COOKIE } from "../../core/constants.ts";

export interface ApiResult<T = Record<string, unknown>> {
  ok: boolean;
  status: number;
  data: T;
}

/** The XSRF-TOKEN cookie's value, echoed in the X-XSRF-TOKEN header of unsafe calls. */
export function xsrfToken(): string {
  const match = document.cookie.split("; ").find((c) => c.startsWith(`${XSRF_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(XSRF_COOKIE.length + 1)) : "";
}

type Method = "GET" | "POST";

/** A call's path below /api, as core/api-table.ts lists it. */
export type ApiPath = keyof ApiTable;

/** The paths that answer a method. */
export type ApiPathFor<M extends Method> = {
  [P in ApiPath]: M extends keyof ApiTable[P] ? P : never;
}[ApiPath];

/**
 * What a call answers on success: the output of its response schema (core/<feature>/responses.ts).
 * A failure answers the site's failure shape instead (`message`, `errors`), read with `messageOf`.
 */
export type ApiAnswerOf<P extends ApiPath, M extends Method = "POST"> =
  ApiTable[P] extends Record<M, { response: infer Response extends z.ZodType }>
    ? z.output<Response>
    : never;

/**
 * A failure's answer: the site's `{ status: false, message, errors }`, or one of the spec's own
 * failure shapes (server/api/errors.ts). Read its message with `messageOf` (app/lib/api-form.ts):
 * a few spec calls send `message` as an object.
 */
export interface ApiFailure {
  status?: string | boolean;
  message?: string;
  errors?: Record<string, string>;
}

/** A typed call's result: the success answer when `ok`, the failure's answer otherwise. */
export type ApiOutcome<Answer> =
  { ok: true; status: number; data: Answer } | { ok: false; status: number; data: ApiFailure };

/**
 * Calls the site's own JSON API from the browser, echoing the XSRF cookie as the spec's CSRF
 * header. Never throws: a network failure comes back as status 0 with a message. The answer's type
 * comes from the call's response schema, through core/api-table.ts (record 0080).
 */
export async function apiCall<P extends ApiPathFor<"GET">>(
  path: P,
): Promise<ApiOutcome<ApiAnswerOf<P, "GET">>>;
export async function apiCall<P extends ApiPathFor<M>, M extends Method = "POST">(
  path: P,
  body: Record<string, unknown> | FormData | undefined,
  method?: M,
): Promise<ApiOutcome<ApiAnswerOf<P, M>>>;
/**
 * A call whose caller names the answer's type itself: kept for the form kit's callers
 * (app/lib/api-form.ts), whose `useApiForm` reads one result type for success and failure.
 */
export async function apiCall<T extends object>(
  path: ApiPath,
  body?: Record<string, unknown> | FormData,
  method?: Method,
): Promise<ApiResult<T>>;
export async function apiCall(
  path: string,
  body?: Record<string, unknown> | FormData,
  method: Method = body === undefined ? "GET" : "POST",
): Promise<ApiOutcome<unknown> | ApiResult<unknown>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (method !== "GET") headers["x-xsrf-token"] = xsrfToken();
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  try {
    const response = await fetch(`/api${path}`, {
      method,
      headers,
      body: payload,
      credentials: "same-origin",
    });
    const data = await response.json().catch(() => ({}));
    // A failed call's body is the site's failure shape (server/api/errors.ts).
    return { ok: response.ok, status: response.status, data } as ApiOutcome<unknown>;
  } catch {
    return {
      ok: false,
      status: 0,
      data: { status: false, message: "Network error. Check your connection and try again." },
    };
  }
}
