/**
 * `npm run bench -- --only push --pg postgres://…` (and every `--pg` run): how soon the push for a
 * matching deal leaves after the deal becomes public, with 100,000 alerts on PostgreSQL
 * (docs/decisions/0109-push-alerts.md; issue 39's goal: 30 s at the 95th percentile).
 *
 * In a schema of its own (dropped at the end): bench/alerts.ts's 100,000 alerts of 2,000 members,
 * each member with one device subscribed at a local push service that checks every VAPID JWT and
 * decrypts every payload (tests/helpers/push-service.ts). Deals are published one every
 * `spacingMs` as the site publishes them (queueAlertMatching in the publishing transaction), and
 * this process works the two queues between a deal and a device, alerts.match and push.send, as
 * a server does. The figure is the site's own: push_timings, what the alerts page publishes.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { alertMatchJob, matchDealAlerts, queueAlertMatching } from "../core/member/alerts/jobs.ts";
import { sendPushMessages } from "../core/member/push/job.ts";
import { pushSendJob } from "../core/member/push/outbox.ts";
import { createJobQueue } from "../core/jobs/queue.ts";
import { createMailQueue, sendMailJob } from "../core/mail/queue.ts";
import { createFolderStorage } from "../core/media/storage.ts";
import { seedDemoData } from "../db/demo/seed.ts";
import { createDb } from "../db/index.ts";
import { startPushService } from "../tests/helpers/push-service.ts";
import { benchDealAuthors, insertBenchDeal, seedBenchAlerts } from "./alerts.ts";

/** Issue 39: the push for a matching deal leaves within 30 s of the deal becoming public, p95. */
export const PUSH_GOAL_SECONDS = 30;

export interface PushBenchResult {
  deals: number;
  pushes: number;
  p50: number;
  p95: number;
  max: number;
}

export async function benchPush(options: {
  pg: string;
  alerts: number;
  deals: number;
  spacingMs?: number;
}): Promise<PushBenchResult> {
  const schema = `bench_push_${randomBytes(4).toString("hex")}`;
  const handle = await createDb({ databaseUrl: options.pg, schema });
  const { db } = handle;
  const push = await startPushService();
  const log = {
    info: () => {},
    warn: (msg: string) => console.warn(msg),
    error: (msg: string | object) => console.error(msg),
  };
  const jobs = createJobQueue(handle, {
    // Instant alerts queue their mail too (sent by no one here): the publishing path as it is.
    kinds: [alertMatchJob, pushSendJob, sendMailJob],
    schema: `${schema}_jobs`,
  });
  try {
    await seedDemoData(db, {
      scale: "small",
      media: createFolderStorage(fs.mkdtempSync(path.join(os.tmpdir(), "bench-push-"))),
    });
    console.log(`Creating ${options.alerts.toLocaleString("en-US")} alerts in ${schema}…`);
    await seedBenchAlerts(db, options.alerts);
    await sql`ANALYZE alerts`.execute(db);
    const members = await db
      .selectFrom("users")
      .select("id")
      .where("email", "like", "bench-%")
      .execute();
    await db
      .insertInto("push_subscriptions")
      .values(
        members.map((m) => {
          const browser = push.browser();
          return {
            user_id: m.id,
            endpoint: browser.endpoint,
            p256dh: browser.keys.p256dh,
            auth: browser.keys.auth,
          };
        }),
      )
      .execute();
    await jobs.start(log);
    const publicUrl = "https://deals.example.com";
    await jobs.work(
      alertMatchJob,
      matchDealAlerts({
        db,
        jobs,
        mail: createMailQueue(jobs, { db, publicUrl }),
        now: () => new Date(),
        publicUrl,
        log,
      }),
    );
    await jobs.work(
      pushSendJob,
      sendPushMessages({ db, now: () => new Date(), publicUrl, log, allowLoopback: true }),
    );

    const { poster, stores } = await benchDealAuthors(db);
    console.log(`Publishing ${options.deals} deals, one every ${options.spacingMs ?? 1000} ms…`);
    for (let i = 0; i < options.deals; i++) {
      await db.transaction().execute(async (tx) => {
        const post = await insertBenchDeal(tx, { i, prefix: "push", posterId: poster, stores });
        await queueAlertMatching(jobs, tx, { postId: post.id, trigger: "publish" });
      });
      await new Promise((resolve) => setTimeout(resolve, options.spacingMs ?? 1000));
    }
    const deadline = Date.now() + 10 * 60_000;
    const pushing = async () =>
      (await jobs.unfinished(alertMatchJob)).length + (await jobs.unfinished(pushSendJob)).length;
    while ((await pushing()) > 0) {
      if (Date.now() > deadline)
        throw new Error("push bench: jobs still unfinished after 10 minutes");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (push.refused.length) {
      throw new Error(
        `push bench: the push service refused ${push.refused.length} pushes, first: ${push.refused[0]!.reason}`,
      );
    }
    const rows = await db.selectFrom("push_timings").select("seconds").orderBy("seconds").execute();
    const seconds = rows.map((r) => Number(r.seconds));
    if (seconds.length === 0) throw new Error("push bench: no alert push was sent");
    const pick = (q: number) =>
      seconds[Math.min(seconds.length - 1, Math.ceil(q * seconds.length) - 1)]!;
    return {
      deals: options.deals,
      pushes: seconds.length,
      p50: pick(0.5),
      p95: pick(0.95),
      max: seconds[seconds.length - 1]!,
    };
  } finally {
    await jobs.stop();
    await handle.close();
    await push.close();
    if (process.env.BENCH_KEEP_SCHEMA) {
      console.log(`kept ${schema}`);
    } else {
      const admin = await createDb({ databaseUrl: options.pg });
      await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(admin.db);
      await sql.raw(`DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`).execute(admin.db);
      await admin.close();
    }
  }
}

/** The bench report's line. */
export function pushBenchLine(result: PushBenchResult, alerts: number): string {
  const verdict = result.p95 <= PUSH_GOAL_SECONDS ? "within" : "OVER";
  return (
    `push alerts: ${alerts.toLocaleString("en-US")} alerts, ${result.deals} deals, ` +
    `${result.pushes.toLocaleString("en-US")} pushes: deal public → push sent ` +
    `median ${result.p50.toFixed(2)} s, p95 ${result.p95.toFixed(2)} s, max ${result.max.toFixed(2)} s ` +
    `(${verdict} the ${PUSH_GOAL_SECONDS} s goal)`
  );
}
