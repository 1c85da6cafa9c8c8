import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";

/**
 * The nearest known word (trigram distance, `search_terms`) of each word, for words that have one
 * within pg_trgm's similarity threshold; a known word is its own nearest.
 */
export async function findNearestTerms(db: DbOrTx, words: string[]): Promise<Map<string, string>> {
  if (words.length === 0) return new Map();
  const result = await sql<{ word: string; term: string | null }>`
    SELECT w.word,
           (SELECT t.term FROM search_terms t
             WHERE t.term % w.word
             ORDER BY t.term <-> w.word, t.term
             LIMIT 1) AS term
    FROM unnest(${words}::text[]) AS w(word)`.execute(db);
  return new Map(result.rows.flatMap((row) => (row.term ? [[row.word, row.term] as const] : [])));
}
