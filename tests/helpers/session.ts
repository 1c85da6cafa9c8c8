import type { FastifyInstance, InjectOptions } from "fastify";
import { SESSION_COOKIE, XSRF_COOKIE } from "../../core/constants.ts";
import { createSession } from "../../core/auth/sessions.ts";
import type { Db } from "../../db/index.ts";

/**
 * A browser-like client for app.inject: keeps cookies and echoes the XSRF token on unsafe calls,
 * as the site's own scripts do.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  /**
   * Signs in as a user directly through the session store (tests of other features), then opens a
   * page as the browser would next: a signed-in answer sets the XSRF cookie bound to the session.
   */
  async signInAs(db: Db, userId: number) {
    const { token } = await createSession(db, userId, "test");
    this.cookies.set(SESSION_COOKIE, token);
    this.cookies.delete(XSRF_COOKIE);
    await this.get("/api/general_settings");
    if (!this.cookies.has(XSRF_COOKIE)) throw new Error("a signed-in answer set no XSRF cookie");
    return token;
  }

  async request(options: InjectOptions & { xsrf?: boolean }) {
    const method = (options.method ?? "GET").toUpperCase();
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    if (this.cookies.size)
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (method !== "GET" && options.xsrf !== false && this.cookies.has(XSRF_COOKIE)) {
      headers["x-xsrf-token"] = this.cookies.get(XSRF_COOKIE)!;
    }
    const response = await this.app.inject({ ...options, headers });
    for (const cookie of response.cookies) {
      if (
        cookie.value === "" ||
        (cookie.maxAge !== undefined && cookie.maxAge <= 0) ||
        (cookie.expires && cookie.expires.getTime() < Date.now())
      ) {
        this.cookies.delete(cookie.name);
      } else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string) {
    return this.request({ method: "GET", url });
  }

  post(url: string, payload?: Record<string, unknown>, extra: { xsrf?: boolean } = {}) {
    return this.request({ method: "POST", url, payload: payload ?? {}, ...extra });
  }
}
