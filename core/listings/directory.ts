/**
 * The store and category lists (/store, /category): the spec's paged grid of 20, each tile with
 * its count of live deals, a search over every name, and for stores an A–Z jump bar.
 *
 * The lists are short (hundreds of stores, tens of categories) and change rarely: the whole
 * alphabetical list is kept in the process (cleared on a catalog change), searched and paged in
 * memory, so a search finds names on every page and a letter knows its page. The live-deal
 * counts of a page are read from the counts the database keeps (migration 022).
 */
import type { DbOrTx } from "../../db/index.ts";
import { TtlCache } from "../cache/ttl-cache.ts";
import { findAllCategories, findAllStores } from "../catalog/store-and-category-lookups.ts";
import { PAGE_SIZE, SEARCH_MAX_LENGTH, lastPage } from "../constants.ts";
import { countScopes, scopeKey, type DealScope } from "../cards/deal-scope.ts";
import type { Deps } from "../deps.ts";
import { SINGLE_LINE } from "../validation.ts";

export type DirectoryKind = "store" | "category";

/** A tile of the grid: the spec's store or category fields used by the tile, and live deals. */
export interface DirectoryItem {
  id: number;
  slug: string;
  title: string;
  image_url: string | null;
  /** Live deals: active and not expired. */
  live_deals: number;
}

/** A letter of the A–Z bar and the page its first store is on (null: no store starts so). */
export interface LetterJump {
  letter: string;
  page: number | null;
}

export interface DirectoryPage {
  items: DirectoryItem[];
  total: number;
  currentPage: number;
  lastPage: number;
  perPage: number;
  /** The search the list is narrowed by ("" for none). */
  query: string;
  /** The A–Z bar (stores, unsearched list only). */
  letters: LetterJump[];
  /** The letter each item of the page opens, where it is the first of its letter. */
  anchors: Record<number, string>;
}

const ALPHABET = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];

/** The bar's letter of a name: its first letter without accents, or "#" for anything else. */
export function initialOf(title: string): string {
  const first = title.trim().normalize("NFD").replace(/\p{M}/gu, "").charAt(0).toUpperCase();
  return ALPHABET.includes(first) ? first : "#";
}

/** `?q=` of the store and category lists: trimmed, cut, and anything unprintable read as none. */
export function directoryQuery(value: string | null | undefined): string {
  if (!value || !SINGLE_LINE.test(value)) return "";
  return value.trim().slice(0, SEARCH_MAX_LENGTH);
}

interface Entry {
  id: number;
  slug: string;
  title: string;
  image_url: string | null;
}

/** Live deals of each of `ids`. */
async function countLiveDeals(db: DbOrTx, kind: DirectoryKind, ids: number[]) {
  const scopes: DealScope[] = ids.map((id) =>
    kind === "store"
      ? { kind, storeId: id, liveOnly: true }
      : { kind, categoryId: id, liveOnly: true },
  );
  const totals = await countScopes(db, scopes);
  return new Map(ids.map((id, i) => [id, totals.get(scopeKey(scopes[i]!)) ?? 0]));
}

export function createDirectory({ db, changes }: Deps) {
  const lists = new TtlCache<Entry[]>(60_000, 2);
  changes.on("catalog", () => lists.clear());
  const perPage = PAGE_SIZE.storesAndCategories;

  const all = (kind: DirectoryKind) =>
    lists.get(kind, async () =>
      kind === "store"
        ? (await findAllStores(db)).map(({ id, slug, title, image_url }) => ({
            id,
            slug,
            title,
            image_url,
          }))
        : await findAllCategories(db),
    );

  /** One page of the list, searched by `query` (any part of a name, any case). */
  return async function directoryPage(
    kind: DirectoryKind,
    page: number,
    query = "",
  ): Promise<DirectoryPage> {
    const entries = await all(kind);
    const needle = query.toLocaleLowerCase();
    const matches = needle
      ? entries.filter((entry) => entry.title.toLocaleLowerCase().includes(needle))
      : entries;
    const slice = matches.slice((page - 1) * perPage, page * perPage);
    const ids = slice.map((entry) => entry.id);
    const live = await countLiveDeals(db, kind, ids);

    const letters: LetterJump[] = [];
    const anchors: Record<number, string> = {};
    if (kind === "store" && !needle) {
      const firstIndex = new Map<string, number>();
      entries.forEach((entry, index) => {
        const letter = initialOf(entry.title);
        if (!firstIndex.has(letter)) firstIndex.set(letter, index);
      });
      for (const letter of [...ALPHABET, "#"]) {
        const index = firstIndex.get(letter);
        if (letter === "#" && index === undefined) continue;
        letters.push({
          letter,
          page: index === undefined ? null : Math.floor(index / perPage) + 1,
        });
        if (index !== undefined && entries[index] && ids.includes(entries[index].id)) {
          anchors[entries[index].id] = letter;
        }
      }
    }

    return {
      items: slice.map((entry) => ({ ...entry, live_deals: live.get(entry.id) ?? 0 })),
      total: matches.length,
      currentPage: page,
      lastPage: lastPage(matches.length, perPage),
      perPage,
      query,
      letters,
      anchors,
    };
  };
}
