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

/**
 * Makes every client of the pool send statements `prepared` marked as named ones; node-postgres
 * remembers per connection which it has parsed, so each is parsed once per connection.
 */
export function sendMarkedStatementsPrepared(pool: pg.Pool): void {
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as QueryFunction;
    const named: QueryFunction = (text, ...rest) => {
      if (typeof text === "string" && (text.startsWith(MARKED_PREFIX) || text.startsWith(MARKER))) {
        const [values, callback] = rest;
        return query({ name: statementName(text), text, values }, callback);
      }
      return query(text, ...rest);
    };
    client.query = named as typeof client.query;
  });
}
