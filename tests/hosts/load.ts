import http from "node:http";
import { httpRequest } from "./processes.ts";

/**
 * Steady load through the load balancer: `connections` requests always in flight, anonymous pages
 * and comments that write. Every comment the site acknowledges (201/200 with its id) is recorded,
 * so the run can check each one is in the database afterwards.
 */
export interface LoadOptions {
  baseUrl: string;
  connections: number;
  /** Pages the readers ask for. */
  pages: string[];
  /** Members who comment (bearer tokens, exempt from CSRF), in turn. */
  writers: { userId: number; token: string }[];
  /** Deals they comment on. */
  postIds: number[];
  /** At most this many writes a second (the per-member comment limit allows 30 in 10 minutes). */
  writesPerSecond: number;
}

export interface LoadFailure {
  at: number;
  what: string;
  error: string;
}

export interface LoadRun {
  /** Writes acknowledged so far: comment id, and when the answer came. */
  acknowledged: { id: number; at: number }[];
  failures: LoadFailure[];
  requests: number;
  stop(): Promise<void>;
}

export function startLoad(options: LoadOptions): LoadRun {
  // Kept-alive connections to HAProxy, as a browser or CDN would hold them.
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const run: LoadRun = { acknowledged: [], failures: [], requests: 0, stop: async () => {} };
  let stopping = false;
  let nextWriteAt = Date.now();
  let writeCount = 0;

  async function one(loop: number, step: number) {
    const write = Date.now() >= nextWriteAt;
    if (write) {
      nextWriteAt = Date.now() + 1000 / options.writesPerSecond;
      const n = writeCount++;
      const writer = options.writers[n % options.writers.length]!;
      const postId = options.postIds[n % options.postIds.length]!;
      const body = JSON.stringify({
        user_id: writer.userId,
        post_id: postId,
        post_type: "d",
        comment_id: "",
        comment_text: `Load comment ${n} from connection ${loop}`,
      });
      const what = `POST /api/product_add_comment #${n}`;
      try {
        const answer = await httpRequest(`${options.baseUrl}/api/product_add_comment`, {
          method: "POST",
          agent,
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${writer.token}`,
          },
          body,
        });
        const json = JSON.parse(answer.text() || "{}") as { comment?: { id?: number } };
        if (answer.status >= 200 && answer.status < 300 && typeof json.comment?.id === "number") {
          run.acknowledged.push({ id: json.comment.id, at: Date.now() });
        } else {
          run.failures.push({
            at: Date.now(),
            what,
            error: `HTTP ${answer.status}: ${answer.text().slice(0, 200)}`,
          });
        }
      } catch (error) {
        run.failures.push({ at: Date.now(), what, error: String(error) });
      }
      return;
    }
    const page = options.pages[(loop + step) % options.pages.length]!;
    try {
      const answer = await httpRequest(`${options.baseUrl}${page}`, { agent });
      if (answer.status !== 200) {
        run.failures.push({ at: Date.now(), what: `GET ${page}`, error: `HTTP ${answer.status}` });
      }
    } catch (error) {
      run.failures.push({ at: Date.now(), what: `GET ${page}`, error: String(error) });
    }
  }

  const loops = Array.from({ length: options.connections }, async (_, loop) => {
    for (let step = 0; !stopping; step++) {
      await one(loop, step);
      run.requests++;
    }
  });
  run.stop = async () => {
    stopping = true;
    await Promise.all(loops);
    agent.destroy();
  };
  return run;
}
