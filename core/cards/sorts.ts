/**
 * The names of the orders a deal list can be sorted in; their SQL is in core/cards/deal-sort.ts.
 * Apart from it so that the browser, which checks a list's sort, does not download the query
 * builder (docs/decisions/0051-javascript-budget.md).
 */
export const DEAL_SORTS = ["hot", "new", "discount", "price"] as const;
export type DealSort = (typeof DEAL_SORTS)[number];
