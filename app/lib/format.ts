import { dateTimeFormat } from "../../core/intl-formats.ts";

const SYMBOLS: Record<string, string> = { USD: "$", CAD: "$", AUD: "$", EUR: "€", GBP: "£" };

/** "$3.97"; the spec shows prices with a dollar sign. */
export function formatPrice(price: number | null | undefined, currency = "USD"): string {
  if (price === null || price === undefined) return "";
  const symbol = SYMBOLS[currency.toUpperCase()] ?? `${currency.toUpperCase()} `;
  return `${symbol}${price.toFixed(2)}`;
}

/** "Mar 4, 2026" (UTC, so the server and the browser agree). */
export function formatDate(iso: string): string {
  return dateTimeFormat("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(iso));
}

/** "Mar 4, 2026, 2:05 PM" (UTC). */
export function formatDateTime(iso: string): string {
  return dateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(new Date(iso));
}
