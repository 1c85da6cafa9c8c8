import { Link } from "react-router";
import type { StoreOption } from "../../core/listings/presenter.ts";
import { EMPTY_PANEL, isPanelFiltered, type PanelFilter } from "../../core/listings/schema.ts";

/** One active choice of the Filter panel, and the panel without it. */
export interface ActiveFilter {
  key: string;
  label: string;
  without: PanelFilter;
}

function rangeLabel(
  range: { min?: number; max?: number },
  format: (n: number) => string,
  noun: string,
) {
  if (range.min !== undefined && range.max !== undefined) {
    return `${noun} ${format(range.min)} – ${format(range.max)}`;
  }
  if (range.min !== undefined) return `${noun} from ${format(range.min)}`;
  return `${noun} up to ${format(range.max!)}`;
}

/** The panel's active choices, each with what removing it leaves. */
export function activeFilters(panel: PanelFilter, stores: StoreOption[] = []): ActiveFilter[] {
  const active: ActiveFilter[] = [];
  for (const id of panel.storeIds) {
    const title = stores.find((store) => store.id === id)?.title ?? `Store ${id}`;
    const storeIds = panel.storeIds.filter((other) => other !== id);
    active.push({
      key: `store-${id}`,
      label: title,
      // The spec: clearing the last store returns to the unfiltered listing.
      without: storeIds.length === 0 ? EMPTY_PANEL : { ...panel, storeIds },
    });
  }
  if (panel.price.min !== undefined || panel.price.max !== undefined) {
    active.push({
      key: "price",
      label: rangeLabel(panel.price, (n) => `$${n}`, "Price"),
      without: { ...panel, price: {} },
    });
  }
  if (panel.discount.min !== undefined || panel.discount.max !== undefined) {
    active.push({
      key: "discount",
      label: rangeLabel(panel.discount, (n) => `${n}%`, "Discount"),
      without: { ...panel, discount: {} },
    });
  }
  return active;
}

/** Chips above the results naming each active filter; each one's × removes it. */
export function FilterChips({
  filters,
  onChange,
}: {
  filters: ActiveFilter[];
  onChange: (next: PanelFilter) => void;
}) {
  if (filters.length === 0) return null;
  return (
    <div className="filter-chips" role="group" aria-label="Active filters">
      <ul>
        {filters.map((filter) => (
          <li key={filter.key}>
            <button type="button" className="filter-chip" onClick={() => onChange(filter.without)}>
              <span>{filter.label}</span>
              <span className="filter-chip-x" aria-hidden="true">
                ×
              </span>
              <span className="visually-hidden"> (remove this filter)</span>
            </button>
          </li>
        ))}
      </ul>
      {filters.length > 1 && (
        <button type="button" className="btn btn-link" onClick={() => onChange(EMPTY_PANEL)}>
          Clear all
        </button>
      )}
    </div>
  );
}

/** What to do when a listing has no deals: loosen a filter, clear them all, or see new deals. */
export function EmptySuggestions({
  panel,
  filters,
  onChange,
}: {
  panel: PanelFilter;
  filters: ActiveFilter[];
  onChange: (next: PanelFilter) => void;
}) {
  const filtered = isPanelFiltered(panel);
  return (
    <div className="empty-suggestions">
      <p>
        {filtered
          ? "No deals match these filters. Try loosening them:"
          : "There are no deals here yet."}
      </p>
      <ul>
        {filters.map((filter) => (
          <li key={filter.key}>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => onChange(filter.without)}
            >
              Remove “{filter.label}”
            </button>
          </li>
        ))}
        {filters.length > 1 && (
          <li>
            <button type="button" className="btn btn-outline" onClick={() => onChange(EMPTY_PANEL)}>
              Clear all filters
            </button>
          </li>
        )}
        <li>
          <Link to="/newdeals" className="btn btn-primary">
            See the newest deals
          </Link>
        </li>
      </ul>
    </div>
  );
}
