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

/**
 * Calls the site's own JSON API from the browser, echoing the XSRF cookie as the spec's CSRF
 * header. Never throws: a network failure comes back as status 0 with a message.
 */
export async function apiCall<T = Record<string, unknown>>(
  path: string,
  body?: Record<string, unknown> | FormData,
  method: "GET" | "POST" = body === undefined ? "GET" : "POST",
): Promise<ApiResult<T>> {
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
    const data = (await response.json().catch(() => ({}))) as T;
    return { ok: response.ok, status: response.status, data };
  } catch {
    return {
      ok: false,
      status: 0,
      data: { status: false, message: "Network error. Check your connection and try again." } as T,
    };
  }
}
