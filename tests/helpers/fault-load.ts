import { randomBytes } from "node:crypto";
import { createSession } from "../../core/auth/sessions.ts";
import { seedDemoData } from "../../db/demo/seed.ts";
import type { Db } from "../../db/index.ts";
import { createTestUser } from "./users.ts";
import { createFolderStorage } from "../../core/media/storage.ts";
import { DEMO_IMAGE_CACHE } from "../setup/demo-images.ts";

/**
 * Mixed traffic for database-fault tests: comment writes (each with a unique text, so a test can
 * tell which acknowledged writes were stored), JSON reads and a server-rendered page, from several
 * concurrent workers. Every answer must be 200/201, or 503 with Retry-After in the right format.
 */
export interface LoadTarget {
  token: string;
  userId: number;
  post: { id: number; post_type: "d" | "g" };
}

/** Demo content, a confirmed member with a session (bearer token) and a deal to comment on. */
export async function prepareLoadTarget(db: Db, mediaDir: string): Promise<LoadTarget> {
  await seedDemoData(db, {
    media: createFolderStorage(mediaDir),
    scale: "small",
    imageCache: DEMO_IMAGE_CACHE,
  });
  const userId = await createTestUser(db, { name: "Fault Tester" });
  const { token } = await createSession(db, userId, "fault-load");
  const post = await db
    .selectFrom("posts")
    .select(["id", "post_type"])
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  return { token, userId, post };
}

export interface LoadResult {
  requests: number;
  byStatus: Record<string, number>;
  /** Requests that got no HTTP answer at all (resets, refused connections). */
  networkErrors: string[];
  /** Answers outside the contract (a 500, a 503 without Retry-After, a wrong body). */
  unexpected: string[];
  attemptedWrites: string[];
  acknowledgedWrites: string[];
}

export async function runMixedLoad(
  baseUrl: string,
  target: LoadTarget,
  { workers = 8, keepGoing }: { workers?: number; keepGoing: () => boolean },
): Promise<LoadResult> {
  const tag = `load-${randomBytes(4).toString("hex")}`;
  const result: LoadResult = {
    requests: 0,
    byStatus: {},
    networkErrors: [],
    unexpected: [],
    attemptedWrites: [],
    acknowledgedWrites: [],
  };
  const json = { "content-type": "application/json", authorization: `Bearer ${target.token}` };

  async function one(worker: number, round: number) {
    const kind = (["write", "read", "page"] as const)[round % 3]!;
    const text = `${tag}-${worker}-${round}`;
    const request =
      kind === "write"
        ? {
            url: "/api/product_add_comment",
            init: {
              method: "POST",
              headers: json,
              body: JSON.stringify({
                user_id: target.userId,
                post_id: target.post.id,
                post_type: target.post.post_type,
                comment_id: "",
                comment_text: text,
              }),
            },
          }
        : kind === "read"
          ? { url: "/api/home", init: { method: "POST", headers: json, body: "{}" } }
          : { url: "/", init: { method: "GET" } };
    if (kind === "write") result.attemptedWrites.push(text);
    result.requests++;
    let response: Response;
    try {
      response = await fetch(baseUrl + request.url, request.init);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      result.networkErrors.push(`${kind}: ${cause?.code ?? cause?.message ?? String(error)}`);
      return;
    }
    const body = await response.text();
    result.byStatus[response.status] = (result.byStatus[response.status] ?? 0) + 1;
    const expected = kind === "write" ? 201 : 200;
    if (response.status === expected) {
      if (kind === "write") result.acknowledgedWrites.push(text);
      return;
    }
    if (response.status !== 503) {
      result.unexpected.push(`${kind} ${response.status}: ${body.slice(0, 200)}`);
      return;
    }
    const contentType = response.headers.get("content-type") ?? "";
    const wellFormed =
      response.headers.get("retry-after") === "5" &&
      (kind === "page"
        ? contentType.startsWith("text/html") && body.includes("Temporarily unavailable")
        : contentType.startsWith("application/json") &&
          (JSON.parse(body) as { status?: unknown }).status === false);
    if (!wellFormed) result.unexpected.push(`${kind} 503 malformed: ${body.slice(0, 200)}`);
  }

  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let round = 0; keepGoing(); round++) await one(worker, round);
    }),
  );
  return result;
}

/** Which of the texts are stored as comments. */
export async function storedWrites(db: Db, texts: string[]): Promise<Set<string>> {
  if (!texts.length) return new Set();
  const prefix = texts[0]!.split("-").slice(0, 2).join("-");
  const rows = await db
    .selectFrom("comments")
    .select("body")
    .where("body", "like", `%${prefix}-%`)
    .execute();
  const found = new Set<string>();
  for (const { body } of rows) {
    for (const match of body.matchAll(new RegExp(`${prefix}-\\d+-\\d+`, "g"))) found.add(match[0]);
  }
  return found;
}
