import type { Db, DbOrTx } from "../../../db/index.ts";
import { defineJob } from "../../jobs/job.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { queuePushes, type PushNotice } from "../push/outbox.ts";
import type { MailQueue } from "../../mail/queue.ts";
import { notifyFollowersOfDeal } from "../follows/new-deal-news.ts";
import { notify } from "../notifications/notify.ts";
import { postPath } from "../../posts/paths.ts";
import { DEFAULT_SITE_NAME } from "../../settings/defaults.ts";
import { alertLabel, formatPrice, mailDeal, sendAlertMail, type AlertDealSummary } from "./mail.ts";
import * as repo from "./repository.ts";

/**
 * Keyword alerts' background work (docs/decisions/0045-alert-matching.md): matching one deal
 * against every alert, the instant mails (at most one per alert per 10 minutes), the daily digest.
 */

export interface AlertMatchData {
  postId: number;
  /** "publish": just public (posted, or approved); "hot": a vote just made it hot. */
  trigger: "publish" | "hot";
  /**
   * When the deal became public (ISO 8601), for "publish": the alert pushes' speed figure counts
   * from here (docs/decisions/0109-push-alerts.md). Absent in jobs queued before it was added.
   */
  publicAt?: string;
}

/** One deal against every alert: queued in the transaction that publishes or heats the deal. */
export const alertMatchJob = defineJob<AlertMatchData>({
  name: "alerts.match",
  retryLimit: 10,
  retryDelaySeconds: 2,
  retryDelayMaxSeconds: 300,
  timeoutSeconds: 120,
  keepSeconds: 3600,
  pollSeconds: 1,
});

/** Every minute: instant alerts whose 10 minutes have passed send what waited meanwhile. */
export const alertInstantJob = defineJob<Record<string, never>>({
  name: "alerts.instant",
  cron: "* * * * *",
  retryLimit: 2,
  retryDelaySeconds: 10,
  retryDelayMaxSeconds: 60,
  timeoutSeconds: 5 * 60,
  keepSeconds: 3600,
});

/** Every hour on the hour: the daily digests of the members whose hour (UTC) it is. */
export const alertDigestJob = defineJob<Record<string, never>>({
  name: "alerts.digest",
  cron: "0 * * * *",
  retryLimit: 5,
  retryDelaySeconds: 30,
  retryDelayMaxSeconds: 600,
  timeoutSeconds: 15 * 60,
  keepSeconds: 24 * 3600,
});

/** Queues matching of a deal inside the transaction that makes it public or hot. */
export async function queueAlertMatching(jobs: JobQueue, tx: DbOrTx, data: AlertMatchData) {
  const publicAt = data.trigger === "publish" ? { publicAt: new Date().toISOString() } : {};
  await jobs.send(alertMatchJob, { ...publicAt, ...data }, tx);
}

export interface AlertJobDeps {
  db: Db;
  /** Pushes to members' devices are queued here, in the transaction that notifies them. */
  jobs: JobQueue;
  mail: MailQueue;
  now: () => Date;
  publicUrl: string;
  log: { info(msg: string): void };
}

async function siteName(db: DbOrTx): Promise<string> {
  return (await repo.findSiteName(db)) || DEFAULT_SITE_NAME;
}

/** Mails each alert's waiting matches (one mail per alert) and marks them mailed. */
async function mailInstant(
  tx: DbOrTx,
  deps: AlertJobDeps,
  alerts: { id: number; user_id: number; keywords: string }[],
  at: Date,
) {
  if (alerts.length === 0) return 0;
  const name = await siteName(tx);
  let sent = 0;
  for (const alert of alerts) {
    const [member, deals] = await Promise.all([
      repo.findMember(tx, alert.user_id),
      repo.findUnmailedDeals(tx, alert.id),
    ]);
    if (member && deals.length) {
      await sendAlertMail(deps.mail, tx, {
        userId: member.id,
        to: member.email,
        name: member.name,
        siteName: name,
        publicUrl: deps.publicUrl,
        digest: false,
        alerts: [
          {
            label: alertLabel(alert.keywords),
            deals: deals.map((d) => mailDeal(deps.publicUrl, d)),
          },
        ],
      });
      sent++;
    }
  }
  await repo.markMailed(
    tx,
    alerts.map((a) => a.id),
    at,
  );
  return sent;
}

/**
 * The match job's work, when a deal becomes public or hot: tell followers (on publish), record
 * alert matches, notify in-site, mail instant alerts that are due.
 */
export function matchDealAlerts(deps: AlertJobDeps) {
  return async ({ postId, trigger, publicAt }: AlertMatchData) => {
    const at = deps.now();
    await deps.db.transaction().execute(async (tx) => {
      // The same moment makes the deal news for its followers' feeds.
      const followers = trigger === "publish" ? await notifyFollowersOfDeal(tx, postId) : [];
      const matches = await repo.matchDeal(tx, postId, trigger === "hot", at);
      if (matches.length === 0 && followers.length === 0) return;
      const deal = await repo.findDealSummary(tx, postId);
      if (!deal) return;
      await queuePushes(
        deps.jobs,
        tx,
        dealPushes(deal, {
          matches,
          keywords: await repo.findKeywordsOf(
            tx,
            matches.filter((m) => m.delivery === "instant").map((m) => m.alert_id),
          ),
          followers,
          hot: trigger === "hot",
          publicAt: publicAt ? new Date(publicAt) : undefined,
        }),
      );
      if (matches.length === 0) return;
      const keywords = await repo.findKeywordsOf(
        tx,
        matches.map((m) => m.alert_id),
      );
      const hot = trigger === "hot" ? " is now hot" : "";
      await notify(
        tx,
        matches.map((m) => ({
          userId: m.user_id,
          kind: "alert_match",
          message: `Your alert “${alertLabel(keywords.get(m.alert_id) ?? "")}”: ${deal.title}${hot}`,
          link: postPath(deal),
        })),
      );
      const instant = matches.filter((m) => m.delivery === "instant").map((m) => m.alert_id);
      if (instant.length) {
        await mailInstant(tx, deps, await repo.lockDueInstantAlerts(tx, at, instant), at);
      }
    });
  };
}

/**
 * The pushes a deal makes (docs/decisions/0109-push-alerts.md): one to each member with an instant
 * alert it matches (however many of their alerts it matches), and to each follower told of it who
 * got no alert push for it. Tapping either opens the deal.
 */
function dealPushes(
  deal: AlertDealSummary,
  context: {
    matches: { alert_id: number; user_id: number; delivery: string }[];
    keywords: Map<number, string>;
    followers: number[];
    hot: boolean;
    publicAt: Date | undefined;
  },
): PushNotice[] {
  const url = postPath(deal);
  const price = formatPrice(deal.price, deal.currency);
  const body = [deal.title, [price, deal.store_title].filter(Boolean).join(" at ")]
    .filter(Boolean)
    .join(" — ");
  const pushes = new Map<number, PushNotice>();
  for (const match of context.matches) {
    if (match.delivery !== "instant" || pushes.has(match.user_id)) continue;
    const label = alertLabel(context.keywords.get(match.alert_id) ?? "");
    pushes.set(match.user_id, {
      userId: match.user_id,
      kind: "alert",
      title: context.hot ? `Now hot — your alert “${label}”` : `Your alert “${label}”`,
      body,
      url,
      tag: `deal-${deal.unique_id}`,
      ...(context.publicAt ? { publicAt: context.publicAt } : {}),
    });
  }
  for (const userId of context.followers) {
    if (pushes.has(userId)) continue;
    pushes.set(userId, { userId, kind: "feed", title: "New in your feed", body, url, tag: "feed" });
  }
  return [...pushes.values()];
}

/** The minute job's work: instant alerts whose spacing has passed send what waited. */
export function sendWaitingInstantMails(deps: AlertJobDeps) {
  return async () => {
    const at = deps.now();
    const sent = await deps.db
      .transaction()
      .execute(async (tx) => mailInstant(tx, deps, await repo.lockDueInstantAlerts(tx, at), at));
    if (sent) deps.log.info(`alerts: ${sent} instant mails sent after waiting`);
  };
}

/** The hourly job's work: one digest per member whose daily alerts' hour it is. */
export function sendDailyDigests(deps: AlertJobDeps) {
  return async () => {
    const at = deps.now();
    const sent = await deps.db.transaction().execute(async (tx) => {
      const alerts = await repo.lockDueDigestAlerts(tx, at);
      if (alerts.length === 0) return 0;
      const name = await siteName(tx);
      const byUser = new Map<number, typeof alerts>();
      for (const alert of alerts)
        byUser.set(alert.user_id, [...(byUser.get(alert.user_id) ?? []), alert]);
      let count = 0;
      for (const [userId, own] of byUser) {
        const member = await repo.findMember(tx, userId);
        const sections = [];
        for (const alert of own) {
          const deals = await repo.findUnmailedDeals(tx, alert.id);
          if (deals.length) {
            sections.push({
              label: alertLabel(alert.keywords),
              deals: deals.map((d) => mailDeal(deps.publicUrl, d)),
            });
          }
        }
        if (member && sections.length) {
          await sendAlertMail(deps.mail, tx, {
            userId,
            to: member.email,
            name: member.name,
            siteName: name,
            publicUrl: deps.publicUrl,
            digest: true,
            alerts: sections,
          });
          count++;
        }
      }
      await repo.markMailed(
        tx,
        alerts.map((a) => a.id),
        at,
      );
      return count;
    });
    if (sent) deps.log.info(`alerts: ${sent} daily digests sent`);
  };
}
