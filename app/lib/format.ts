const SYMBOLS: Record<string, string> = { USD: "$", CAD: "$", AUD: "$", EUR: "€", GBP: "£" };

/** "$3.97"; the spec shows prices with a dollar sign. */
export function formatPrice(price: number | null | undefined, currency = "USD"): string {
  if (price === null || price === undefined) return "";
  const symbol = SYMBOLS[currency.toUpperCase()] ?? `${currency.toUpperCase()} `;
  return `${symbol}${price.toFixed(2)}`;
}

/** "12,345": a whole number with US thousands separators, without loading Intl in the browser. */
export function formatCount(count: number): string {
  return Math.trunc(count)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, ",");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "Mar 4, 2026" (UTC, so the server and the browser agree), as Intl's en-US short date writes it.
 * By hand: a deal page's first Intl date formatter cost a phone's browser more than the rest of
 * its scripts' work after the first paint (ICU's locale data loads on first use).
 */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}
