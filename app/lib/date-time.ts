import { dateTimeFormat } from "../../core/intl-formats.ts";

/**
 * "Mar 4, 2026, 2:05 PM" (UTC). Apart from app/lib/format.ts, which every listing and deal page
 * loads and which stays free of Intl (docs/decisions/0063): only the pages that show a time bring
 * the formatter.
 */
export function formatDateTime(iso: string): string {
  return dateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(new Date(iso));
}
