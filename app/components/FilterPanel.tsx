import { useEffect, useId, useState } from "react";
import RcSlider from "rc-slider";
import "rc-slider/assets/index.css";
import type { StoreOption } from "../../core/listings/presenter.ts";
import { EMPTY_PANEL, isPanelFiltered, type PanelFilter } from "../../core/listings/schema.ts";
import { commonJsDefault } from "../lib/interop.ts";

const Slider = commonJsDefault(RcSlider);

export interface RangeBounds {
  min: number;
  max: number;
}

/** Whole-number slider ends (step 1) that still include the extreme values. */
export function sliderBounds(min: number | null | undefined, max: number | null | undefined) {
  if (min === null || min === undefined || max === null || max === undefined) return null;
  return { min: Math.floor(min), max: Math.ceil(max) };
}

type Range = PanelFilter["price"];

interface RangeFilterProps {
  label: string;
  bounds: RangeBounds;
  value: Range;
  format: (value: number) => string;
  disabled?: boolean;
  onCommit: (range: Range) => void;
}

/** A two-handle slider (rc-slider, step 1, handles cannot cross) that reports when let go. */
function RangeFilter({ label, bounds, value, format, disabled, onCommit }: RangeFilterProps) {
  const legendId = useId();
  const low = Math.max(bounds.min, Math.min(value.min ?? bounds.min, bounds.max));
  const high = Math.min(bounds.max, Math.max(value.max ?? bounds.max, bounds.min));
  const [draft, setDraft] = useState<[number, number]>([low, high]);
  useEffect(() => setDraft([low, high]), [low, high]);

  if (bounds.max <= bounds.min) {
    return (
      <fieldset className="filter-range">
        <legend>{label}</legend>
        <p className="filter-range-values">{format(bounds.min)}</p>
      </fieldset>
    );
  }

  const commit = ([from, to]: [number, number]) => {
    onCommit({
      min: from > bounds.min ? from : undefined,
      max: to < bounds.max ? to : undefined,
    });
  };

  return (
    <fieldset className="filter-range">
      <legend id={legendId}>{label}</legend>
      <p className="filter-range-values" aria-live="polite">
        {format(draft[0])} – {format(draft[1])}
      </p>
      <Slider
        range
        min={bounds.min}
        max={bounds.max}
        step={1}
        allowCross={false}
        value={draft}
        disabled={disabled}
        onChange={(next) => setDraft(next as [number, number])}
        onChangeComplete={(next) => commit(next as [number, number])}
        ariaLabelForHandle={[`Minimum ${label.toLowerCase()}`, `Maximum ${label.toLowerCase()}`]}
        ariaValueTextFormatterForHandle={format}
      />
    </fieldset>
  );
}

function StoreChecklist({
  stores,
  selected,
  disabled,
  onChange,
}: {
  stores: StoreOption[];
  selected: number[];
  disabled?: boolean;
  onChange: (storeIds: number[]) => void;
}) {
  const searchId = useId();
  const [query, setQuery] = useState("");
  const needle = query.trim().toLowerCase();
  const shown = needle ? stores.filter((s) => s.title.toLowerCase().includes(needle)) : stores;
  const toggle = (id: number) =>
    onChange(selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id]);

  return (
    <fieldset className="filter-stores">
      <legend>Stores</legend>
      <label htmlFor={searchId} className="visually-hidden">
        Search stores
      </label>
      <input
        id={searchId}
        type="search"
        className="filter-stores-search"
        placeholder="Search stores"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {shown.length === 0 ? (
        <p className="filter-stores-empty">No store matches “{query.trim()}”.</p>
      ) : (
        <ul className="filter-stores-list">
          {shown.map((store) => (
            <li key={store.id}>
              <label>
                <input
                  type="checkbox"
                  checked={selected.includes(store.id)}
                  disabled={disabled}
                  onChange={() => toggle(store.id)}
                />
                <span>{store.title}</span>
                {store.deal_count !== null && (
                  <span className="filter-count">({store.deal_count})</span>
                )}
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

export interface VisitStore {
  title: string;
  link: string;
  image_url: string;
}

export interface FilterPanelProps {
  priceBounds: RangeBounds | null;
  discountBounds: RangeBounds | null;
  value: PanelFilter;
  onChange: (next: PanelFilter) => void;
  /** The store checklist; omitted where it does not apply (a store's own page). */
  stores?: StoreOption[];
  /** A store page's Visit Store card. */
  visitStore?: VisitStore;
  disabled?: boolean;
}

const formatDollars = (value: number) => `$${value}`;
const formatPercent = (value: number) => `${value}%`;

/**
 * The listing pages' Filter side panel: price and discount sliders, the searchable store
 * checklist, and on a store page the Visit Store card. Unchecking the last store clears every
 * choice (the spec: clearing all store selections returns to the unfiltered listing).
 */
export function FilterPanel({
  priceBounds,
  discountBounds,
  value,
  onChange,
  stores,
  visitStore,
  disabled,
}: FilterPanelProps) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const filtered = isPanelFiltered(value);

  return (
    <aside
      className={open ? "filter-panel open" : "filter-panel"}
      aria-labelledby={`${bodyId}-title`}
    >
      <div className="filter-panel-head">
        <h2 id={`${bodyId}-title`}>Filter</h2>
        <button
          type="button"
          className="btn btn-outline filter-panel-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "Hide filters" : "Show filters"}
        </button>
      </div>
      <div id={bodyId} className="filter-panel-body">
        {visitStore && (
          <div className="visit-store">
            {visitStore.image_url && (
              <img
                src={visitStore.image_url}
                alt={`${visitStore.title} logo`}
                width={240}
                height={120}
              />
            )}
            <a
              className="btn btn-accent"
              href={visitStore.link}
              target="_blank"
              rel="nofollow noopener sponsored"
            >
              Visit Store
              <span className="visually-hidden"> {visitStore.title} (opens in a new tab)</span>
            </a>
          </div>
        )}
        {priceBounds && (
          <RangeFilter
            label="Price"
            bounds={priceBounds}
            value={value.price}
            format={formatDollars}
            disabled={disabled}
            onCommit={(price) => onChange({ ...value, price })}
          />
        )}
        {discountBounds && (
          <RangeFilter
            label="Discount"
            bounds={discountBounds}
            value={value.discount}
            format={formatPercent}
            disabled={disabled}
            onCommit={(discount) => onChange({ ...value, discount })}
          />
        )}
        {stores && stores.length > 0 && (
          <StoreChecklist
            stores={stores}
            selected={value.storeIds}
            disabled={disabled}
            onChange={(storeIds) =>
              onChange(
                storeIds.length === 0 && value.storeIds.length > 0
                  ? EMPTY_PANEL
                  : { ...value, storeIds },
              )
            }
          />
        )}
        {filtered && (
          <button
            type="button"
            className="btn btn-link filter-clear"
            onClick={() => onChange(EMPTY_PANEL)}
          >
            Clear filters
          </button>
        )}
      </div>
    </aside>
  );
}
