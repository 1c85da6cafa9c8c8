import { createHash, randomBytes } from "node:crypto";
import { requireUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { findCardsByIds } from "../../cards/deal-card-query.ts";
import { presentDealCard } from "../../cards/presenter.ts";
import type { Deps } from "../../deps.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import { postPath } from "../../posts/paths.ts";
import { formatPrice } from "./mail.ts";
import { presentAlert } from "./presenter.ts";
import * as repo from "./repository.ts";
import {
  ALERT_MESSAGES as M,
  MAX_ALERTS_PER_USER,
  RSS_TOKEN,
  type AlertCriteriaInput,
  type AlertIdInput,
  type AlertSaveInput,
} from "./schema.ts";

/** The preview lists at most this many deals (its count is of them all). */
export const PREVIEW_LIMIT = 20;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
/** 256 random bits, base64url: the private feed's address. */
const newToken = () => randomBytes(32).toString("base64url");

/**
 * Keyword alerts (docs/decisions/0045-alert-matching.md): a member's saved searches,
 * their preview over the last 30 days, and their private RSS feed. Matching, mails and digests
 * run on the job queue (./jobs.ts).
 */
export function createAlertsService({ db, now, config }: Deps) {
  /** Checks the criteria against the catalog and compiles the keywords; 422 with every problem. */
  async function resolve(input: AlertCriteriaInput) {
    const errors: Record<string, string> = {};
    const compiled = await repo.compileKeywords(db, input.keywords);
    if (!compiled.searchable) errors.keywords = M.noSearchableWord;
    const stores = [...new Set(input.store_id)];
    const known = await repo.knownStoreIds(db, stores);
    if (known.length !== stores.length) errors.store_id = M.unknownStore;
    if (input.category_id !== undefined && !(await repo.categoryExists(db, input.category_id))) {
      errors.category_id = M.unknownCategory;
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return {
      keywords: input.keywords,
      compiled,
      store_ids: stores,
      category_id: input.category_id ?? null,
      max_price: input.max_price ?? null,
      min_discount: input.min_discount ?? null,
    };
  }

  const feedUrl = (token: string) => `${config.publicUrl}/alerts/rss/${token}`;

  return {
    /** `POST /api/alerts`: the member's alerts, oldest first. */
    async list(user: CurrentUser | null) {
      const member = requireUser(user);
      return (await repo.listAlerts(db, member.id)).map(presentAlert);
    },

    /**
     * `POST /api/alert_save`: a new alert (no id) or a change to one's own (another's id is 404).
     * A new alert's answer carries its feed address once (`rss_url`); later, revoke gives a new one.
     */
    async save(user: CurrentUser | null, input: AlertSaveInput) {
      const member = requireUser(user);
      const criteria = await resolve(input);
      const values: repo.AlertValues = {
        ...criteria,
        only_hot: input.only_hot,
        delivery: input.delivery,
        digest_hour: input.digest_hour,
        paused: input.paused,
      };
      const at = now();
      return db.transaction().execute(async (tx) => {
        let token: string | null = null;
        let id = input.id;
        if (id === undefined) {
          await repo.lockUser(tx, member.id);
          if ((await repo.countAlerts(tx, member.id)) >= MAX_ALERTS_PER_USER) {
            throw new ValidationError({ id: M.tooMany });
          }
          token = newToken();
          id = await repo.insertAlert(tx, member.id, values, hashToken(token), at);
        } else {
          if (!(await repo.findAlert(tx, member.id, id, true))) throw new NotFoundError(M.notFound);
          await repo.updateAlert(tx, id, values, at);
        }
        const saved = await repo.findAlert(tx, member.id, id);
        return {
          message: M.saved,
          alert: presentAlert(saved!),
          ...(token ? { rss_url: feedUrl(token) } : {}),
        };
      });
    },

    /** `POST /api/alert_delete`. */
    async remove(user: CurrentUser | null, input: AlertIdInput) {
      const member = requireUser(user);
      const deleted = await db
        .transaction()
        .execute((tx) => repo.deleteAlert(tx, member.id, input.id));
      if (!deleted) throw new NotFoundError(M.notFound);
      return { message: M.deleted };
    },

    /** `POST /api/alert_rss_revoke`: a new feed address; the old one answers 404 from now on. */
    async revokeRss(user: CurrentUser | null, input: AlertIdInput) {
      const member = requireUser(user);
      const token = newToken();
      await db.transaction().execute(async (tx) => {
        if (!(await repo.findAlert(tx, member.id, input.id, true))) {
          throw new NotFoundError(M.notFound);
        }
        await repo.setTokenHash(tx, input.id, hashToken(token));
      });
      return { message: M.revoked, id: input.id, rss_url: feedUrl(token) };
    },

    /** `POST /api/alert_preview`: public deals of the last 30 days the criteria match. */
    async preview(user: CurrentUser | null, input: AlertCriteriaInput) {
      requireUser(user);
      const criteria = await resolve(input);
      const at = now();
      const { ids, total } = await repo.findPreviewIds(
        db,
        { ...criteria, query: criteria.compiled.query },
        at,
        PREVIEW_LIMIT,
      );
      const rows = await findCardsByIds(db, ids);
      return { total, deal_data: rows.map((row) => presentDealCard(row, at)) };
    },

    /** `GET /alerts/rss/<token>`: the feed's XML, or null for an unknown token (404). */
    async rss(token: string): Promise<string | null> {
      if (!RSS_TOKEN.test(token)) return null;
      const alert = await repo.findAlertByTokenHash(db, hashToken(token));
      if (!alert) return null;
      const items = await repo.findFeedDeals(db, alert.id, now());
      const label = alert.keywords || "your filters";
      const esc = (value: string) =>
        value
          .replace(/&/g, "&amp;")
          .replace(/</g, "&lt;")
          .replace(/>/g, "&gt;")
          .replace(/"/g, "&quot;");
      const entries = items
        .map((item) => {
          const link = `${config.publicUrl}${postPath(item)}`;
          const price = formatPrice(item.price, item.currency);
          const summary = [price, item.store_title ?? "", item.description_text.slice(0, 300)]
            .filter(Boolean)
            .join(" · ");
          return `<item><title>${esc(item.title)}</title><link>${esc(link)}</link><guid isPermaLink="true">${esc(link)}</guid><pubDate>${item.matched_at.toUTCString()}</pubDate><description>${esc(summary)}</description></item>`;
        })
        .join("\n");
      return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${esc(`Deals for your alert “${label}”`)}</title><link>${esc(`${config.publicUrl}/user/alerts`)}</link><description>${esc(`The latest deals matching your alert “${label}”.`)}</description>
${entries}
</channel></rss>
`;
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
