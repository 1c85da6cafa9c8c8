/**
 * Intl formatters, each made once and kept. Making one costs ICU a few hundred microseconds (it
 * loads and resolves the locale's data), using one about a microsecond; `Date#toLocaleString` and
 * `Number#toLocaleString` with a locale make a new one on every call. A deal page formats a dozen
 * dates, a feed or an alert mail a price per deal, on the server and again in the browser.
 */

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** The formatter for a locale and options, the same object for the same locale and options. */
export function dateTimeFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateTimeFormats.set(key, format);
  }
  return format;
}

const currencyFormats = new Map<string, Intl.NumberFormat>();

/**
 * "$1,234.50" for USD, in US English. Throws a RangeError for a code that is no currency (nothing
 * is kept for it); the ISO currencies are a few hundred, so the cache stays small.
 */
export function formatCurrency(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  let format = currencyFormats.get(code);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency: code });
    currencyFormats.set(code, format);
  }
  return format.format(amount);
}
