import { createHash } from "node:crypto";
import { sql, type SelectQueryBuilder } from "kysely";
import type pg from "pg";

/** What `prepared` writes after SELECT, and what the pool's clients look for. */
const MARKER = "/* prepared */";
const MARKED_PREFIX = `select ${MARKER}`;

/**
 * Marks one of the hottest reads (a listing's cards, its deep-page seek, its count; cards by id; a
 * post page's lookups by its id) as a named prepared statement: each connection parses it once and PostgreSQL may keep its plan. With the
 * embedded database every statement is parsed and planned in the server's own thread, and with
 * the many indexes over posts, planning a card query cost more than running it. Only queries
 * whose plan does not depend on their parameters' values belong here: a generic plan is the same
 * for any store, category or page.
 */
export function prepared<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return query.modifyFront(sql.raw(MARKER));
}

/**
 * The front of a raw `sql` statement sent as a named prepared statement, as `prepared` sends a
 * select: sql`${preparedStatement} WITH … INSERT … UPDATE …`. The same rule holds: its plan must
 * not depend on its parameters' values.
 */
export const preparedStatement = sql.raw(`${MARKER} `);

/**
 * `column = any($n::bigint[])`: ids sent as one array parameter, where `IN ($1, $2, …)` would
 * make a new statement text, parsed and planned anew, for each number of ids (the cards on a page).
 */
export function idIn(column: string, ids: readonly number[]) {
  return sql<boolean>`${sql.ref(column)} = any(${ids}::bigint[])`;
}

/** Names by statement text: the few marked texts recur on every request. */
const names = new Map<string, string>();
const NAMES_KEPT = 1_000;

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `p_${createHash("sha1").update(text).digest("base64url").slice(0, 24)}`;
    if (names.size < NAMES_KEPT) names.set(text, name);
  }
  return name;
}

type QueryFunction = (...args: unknown[]) => unknown;

export type PlanCacheMode = "auto" | "force_generic_plan";

/**
 * Makes every client of the pool send statements `prepared` marked as named ones; node-postgres
 * remembers per connection which it has parsed, so each is parsed once per connection.
 *
 * With `planOnce` (PGlite, docs/decisions/0060 and 0075) the named statements are also planned
 * once, for any value: PostgreSQL's default keeps planning a statement anew whenever a parameter
 * (the LIMIT) makes one plan for every value look dearer, and in WebAssembly planning a card query
 * cost more than running it. The mode is PostgreSQL's `plan_cache_mode`, which applies to every
 * statement of the session, the unnamed ones too, where a plan for any value cannot use a partial
 * index whose predicate a parameter would have to prove (`status = $1`). So the client sets
 * `force_generic_plan` before a named statement and `auto` before an unnamed one with parameters,
 * only when the mode changes; inside a transaction with SET LOCAL, which its end undoes whether it
 * commits or rolls back. Each client asks this only while it is idle, so its transaction status
 * is that of the statement about to be sent.
 */
export function sendMarkedStatementsPrepared(pool: pg.Pool, { planOnce = false } = {}): void {
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as QueryFunction;
    // Unknown at first: PGlite's one session outlives the connection that set it.
    let sessionMode: PlanCacheMode | undefined;
    let transactionMode: PlanCacheMode | undefined;
    const setPlanMode = (wanted: PlanCacheMode) => {
      const status = client.getTransactionStatus();
      if (status === "I") transactionMode = undefined;
      if (wanted === (transactionMode ?? sessionMode)) return;
      const local = status !== "I";
      // Queued before the statement; in a failed transaction it fails as the statement will.
      const set = query(
        `SET ${local ? "LOCAL " : ""}plan_cache_mode = ${wanted}`,
      ) as Promise<unknown>;
      set.catch(() => undefined);
      if (local) transactionMode = wanted;
      else sessionMode = wanted;
    };
    const named: QueryFunction = (text, ...rest) => {
      if (typeof text === "string" && (text.startsWith(MARKED_PREFIX) || text.startsWith(MARKER))) {
        const [values, callback] = rest;
        return named({ name: statementName(text), text, values }, callback);
      }
      const wanted = planOnce ? planModeFor(text, rest[0]) : undefined;
      if (wanted) setPlanMode(wanted);
      return query(text, ...rest);
    };
    client.query = named as typeof client.query;
  });
}

/**
 * The plan mode a query wants: plans for any value for a named statement, PostgreSQL's default
 * for an unnamed one with parameters, and undefined (the mode left as it is) for one without, or
 * for what is not a query's text (a cursor).
 */
export function planModeFor(query: unknown, values: unknown): PlanCacheMode | undefined {
  if (typeof query === "object" && query !== null && "text" in query) {
    const config = query as { name?: string; values?: unknown };
    if (config.name) return "force_generic_plan";
    values = config.values ?? values;
  } else if (typeof query !== "string") {
    return undefined;
  }
  return Array.isArray(values) && values.length > 0 ? "auto" : undefined;
}
