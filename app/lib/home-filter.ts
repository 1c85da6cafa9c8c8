/**
 * The home page's By Merchant / By Category choice in its address: `/?store=<id>&category=<id>`,
 * with the ids that the spec's `category_store_filter_home` call takes (the selects' values), so
 * a filtered home page can be shared and reloaded. Anything else in those parameters (not a
 * positive whole number, or no such store or category) means "not chosen": the page stays useful
 * instead of answering an error for a hand-edited address.
 */

export interface HomeFilter {
  store: number | null;
  category: number | null;
}

export const NO_HOME_FILTER: HomeFilter = { store: null, category: null };

function idParam(value: string | null, known: ReadonlySet<number>): number | null {
  if (value === null || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && known.has(id) ? id : null;
}

export function homeFilterFromSearch(
  params: URLSearchParams,
  known: { stores: ReadonlySet<number>; categories: ReadonlySet<number> },
): HomeFilter {
  return {
    store: idParam(params.get("store"), known.stores),
    category: idParam(params.get("category"), known.categories),
  };
}

/** The choice of an address still loading, as far as the browser can tell (the ids unchecked). */
export function pendingHomeFilter(search: string): HomeFilter {
  const params = new URLSearchParams(search);
  const id = (value: string | null) =>
    value !== null && /^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : null;
  return { store: id(params.get("store")), category: id(params.get("category")) };
}

export function isFiltered(filter: HomeFilter): boolean {
  return filter.store !== null || filter.category !== null;
}

/** The query string of a choice ("" when nothing is chosen), other parameters kept. */
export function homeFilterSearch(filter: HomeFilter, current = new URLSearchParams()): string {
  const next = new URLSearchParams(current);
  for (const [name, value] of [
    ["store", filter.store],
    ["category", filter.category],
  ] as const) {
    if (value === null) next.delete(name);
    else next.set(name, String(value));
  }
  const query = next.toString();
  return query ? `?${query}` : "";
}
