import type { DbOrTx } from "../../../db/index.ts";
import { formatCurrency } from "../../intl-formats.ts";
import type { MailQueue } from "../../mail/queue.ts";
import { alertMatchesMail, type AlertMailDeal } from "../../mail/templates.ts";
import { postPath } from "../../posts/paths.ts";

/** What an alert tells of a deal, by mail or by push (./jobs.ts). */
export interface AlertDealSummary {
  post_type: "d" | "g";
  unique_id: string;
  slug: string;
  title: string;
  price: number | null;
  currency: string;
  store_title: string | null;
}

/** A deal as an alert mail lists it. */
export function mailDeal(publicUrl: string, deal: AlertDealSummary): AlertMailDeal {
  return {
    title: deal.title,
    price: formatPrice(deal.price, deal.currency),
    store: deal.store_title ?? "",
    url: `${publicUrl}${postPath(deal)}`,
  };
}

export function formatPrice(price: number | null, currency: string): string {
  if (price === null) return "";
  try {
    return formatCurrency(Number(price), currency || "USD");
  } catch {
    return `$${Number(price).toFixed(2)}`;
  }
}

/**
 * The one way an alert mail leaves (instant and digest alike), queued in the caller's transaction
 * as a member mail: skipped when the member turned alert mails off, otherwise sent with the
 * one-click unsubscribe headers and link. False when skipped.
 */
export async function sendAlertMail(
  mail: MailQueue,
  tx: DbOrTx,
  input: {
    userId: number;
    to: string;
    name: string;
    siteName: string;
    publicUrl: string;
    digest: boolean;
    alerts: { label: string; deals: AlertMailDeal[] }[];
  },
): Promise<boolean> {
  const content = alertMatchesMail({
    siteName: input.siteName,
    name: input.name,
    digest: input.digest,
    alerts: input.alerts,
    alertsLink: `${input.publicUrl}/user/alerts`,
  });
  return mail.sendToMember(
    { to: input.to, ...content },
    { userId: input.userId, kind: "alert" },
    tx,
  );
}

/** How an alert is named in mails and notifications: its keywords, or "your filters". */
export function alertLabel(keywords: string): string {
  return keywords || "deals matching your filters";
}
