import type { z } from "zod";
import { dateTimeFormat } from "../../core/intl-formats.ts";

/**
 * A console list's filters from its page URL, read with the same schema as its GET call. A value
 * the schema refuses (an edited URL) is left out rather than failing the page; `ignored` names it.
 */
export function readConsoleQuery<S extends z.ZodType<Record<string, unknown>>>(
  schema: S,
  url: string,
): { query: z.output<S>; ignored: string[] } {
  const values: Record<string, string> = Object.fromEntries(new URL(url).searchParams);
  const first = schema.safeParse(values);
  if (first.success) return { query: first.data, ignored: [] };
  const ignored = [...new Set(first.error.issues.map((issue) => String(issue.path[0] ?? "")))];
  for (const name of ignored) delete values[name];
  return { query: schema.parse(values), ignored };
}

/** The list's URL for another page, every filter kept. */
export function consolePageHref(search: string, page: number): string {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  const query = params.toString();
  return query ? `?${query}` : "?";
}

/** "Mar 4, 2026, 14:05 UTC": console times, the same on the server and in the browser. */
export function formatConsoleTime(iso: string): string {
  return (
    dateTimeFormat("en-US", {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: "UTC",
    }).format(new Date(iso)) + " UTC"
  );
}
