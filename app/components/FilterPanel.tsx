import { useEffect, useId, useRef, useState } from "react";
import RcSlider from "rc-slider";
import "rc-slider/assets/index.css";
import type { StoreOption } from "../../core/listings/presenter.ts";
import { EMPTY_PANEL, isPanelFiltered, type PanelFilter } from "../../core/listings/schema.ts";
import { commonJsDefault } from "../lib/interop.ts";
import { useMediaUrl } from "../lib/media-url.tsx";

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
  /** Two number inputs beside the slider (the price filter), kept in step with it. */
  inputs?: boolean;
  onCommit: (range: Range) => void;
}

/** What a number input of a range says is wrong with it, or null when it can be applied. */
export function rangeInputError(
  label: string,
  bounds: RangeBounds,
  [from, to]: [string, string],
): string | null {
  const low = from.trim() === "" ? bounds.min : Number(from);
  const high = to.trim() === "" ? bounds.max : Number(to);
  const name = label.toLowerCase();
  if (!Number.isFinite(low) || !Number.isFinite(high)) return `Enter the ${name} as a number.`;
  const outside = (n: number) => n < bounds.min || n > bounds.max;
  if (outside(low) || outside(high)) {
    return `Enter a ${name} between ${bounds.min} and ${bounds.max}.`;
  }
  if (low > high) return `The minimum ${name} must not be more than the maximum.`;
  return null;
}

/**
 * A two-handle slider (rc-slider, step 1, handles cannot cross) that reports when let go; with
 * `inputs`, two number inputs beside it that move the handles and apply on Enter or on leaving.
 */
function RangeFilter({
  label,
  bounds,
  value,
  format,
  disabled,
  inputs,
  onCommit,
}: RangeFilterProps) {
  const legendId = useId();
  const low = Math.max(bounds.min, Math.min(value.min ?? bounds.min, bounds.max));
  const high = Math.min(bounds.max, Math.max(value.max ?? bounds.max, bounds.min));
  const [draft, setDraft] = useState<[number, number]>([low, high]);
  const [typed, setTyped] = useState<[string, string]>([String(low), String(high)]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setDraft([low, high]);
    setTyped([String(low), String(high)]);
    setError(null);
  }, [low, high]);

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

  const applyTyped = () => {
    const problem = rangeInputError(label, bounds, typed);
    setError(problem);
    if (problem) return;
    const next: [number, number] = [
      typed[0].trim() === "" ? bounds.min : Number(typed[0]),
      typed[1].trim() === "" ? bounds.max : Number(typed[1]),
    ];
    if (next[0] === draft[0] && next[1] === draft[1]) return;
    setDraft(next);
    commit(next);
  };

  const name = label.toLowerCase();
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
        onChange={(next) => {
          const range = next as [number, number];
          setDraft(range);
          setTyped([String(range[0]), String(range[1])]);
          setError(null);
        }}
        onChangeComplete={(next) => commit(next as [number, number])}
        ariaLabelForHandle={[`Minimum ${name}`, `Maximum ${name}`]}
        ariaValueTextFormatterForHandle={format}
      />
      {inputs && (
        <div className="filter-range-inputs">
          {(["Min", "Max"] as const).map((end, i) => (
            <label key={end}>
              <span>
                {end} {name}
              </span>
              <input
                type="number"
                inputMode="decimal"
                min={bounds.min}
                max={bounds.max}
                step={1}
                value={typed[i]}
                disabled={disabled}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${legendId}-error` : undefined}
                onChange={(event) =>
                  setTyped(
                    i === 0 ? [event.target.value, typed[1]] : [typed[0], event.target.value],
                  )
                }
                onBlur={applyTyped}
                onKeyDown={(event) => {
                  if (event.key === "Enter") {
                    event.preventDefault();
                    applyTyped();
                  }
                }}
              />
            </label>
          ))}
        </div>
      )}
      {error && (
        <p id={`${legendId}-error`} className="filter-range-error" role="alert">
          {error}
        </p>
      )}
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
  /** How many deals the listing holds with the panel's current choices. */
  total: number;
  /** How many deals other choices would leave (the phone sheet's "Show N deals"); null: unknown. */
  countDeals: (panel: PanelFilter) => Promise<number | null>;
}

const formatDollars = (value: number) => `$${value}`;
const formatPercent = (value: number) => `${value}%`;

/** Below this width the panel opens as a bottom sheet (app.css's phone breakpoint). */
const PHONE_QUERY = "(max-width: 575.98px)";

/** How long the sheet waits after the last change before it counts the deals again. */
const COUNT_DEBOUNCE_MS = 250;

type FieldsProps = Omit<FilterPanelProps, "total" | "countDeals" | "visitStore">;

/** The panel's choices: price (slider and number inputs), discount, the store checklist. */
function FilterFields({
  priceBounds,
  discountBounds,
  value,
  onChange,
  stores,
  disabled,
}: FieldsProps) {
  return (
    <>
      {priceBounds && (
        <RangeFilter
          label="Price"
          bounds={priceBounds}
          value={value.price}
          format={formatDollars}
          disabled={disabled}
          inputs
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
    </>
  );
}

function VisitStoreCard({ visitStore }: { visitStore: VisitStore }) {
  const mediaUrl = useMediaUrl();
  return (
    <div className="visit-store">
      {visitStore.image_url && (
        <img
          src={mediaUrl(visitStore.image_url)}
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
  );
}

const dealsLabel = (count: number) => `${count} ${count === 1 ? "deal" : "deals"}`;

/**
 * The phone's bottom sheet: a modal dialog (the rest of the page is inert, Escape closes it,
 * labelled by its heading) holding the panel's choices as a draft. "Show N deals" applies them;
 * N is counted by the filter call as the choices change.
 */
function FilterSheet({
  initial,
  total,
  countDeals,
  onApply,
  onClose,
  fields,
}: {
  initial: PanelFilter;
  total: number;
  countDeals: FilterPanelProps["countDeals"];
  onApply: (panel: PanelFilter) => void;
  onClose: () => void;
  fields: Omit<FieldsProps, "value" | "onChange">;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [draft, setDraft] = useState(initial);
  const [count, setCount] = useState<number | null>(total);
  const [counting, setCounting] = useState(false);
  const changed = useRef(false);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  useEffect(() => {
    if (!changed.current) return;
    let cancelled = false;
    setCounting(true);
    const timer = setTimeout(() => {
      void countDeals(draft).then((n) => {
        if (cancelled) return;
        setCount(n);
        setCounting(false);
      });
    }, COUNT_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [draft, countDeals]);

  const change = (next: PanelFilter) => {
    changed.current = true;
    setDraft(next);
  };

  return (
    <dialog
      ref={dialog}
      className="filter-sheet"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="filter-sheet-head">
        <h2 id={titleId}>Filter deals</h2>
        <button type="button" className="filter-sheet-close" onClick={onClose}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">Close filters</span>
        </button>
      </div>
      <div className="filter-sheet-body">
        <FilterFields {...fields} value={draft} onChange={change} />
      </div>
      <div className="filter-sheet-foot">
        <button
          type="button"
          className="btn btn-outline"
          disabled={!isPanelFiltered(draft)}
          onClick={() => change(EMPTY_PANEL)}
        >
          Clear all
        </button>
        <button
          type="button"
          className="btn btn-primary filter-sheet-show"
          aria-busy={counting}
          onClick={() => onApply(draft)}
        >
          {count === null ? "Show deals" : `Show ${dealsLabel(count)}`}
        </button>
      </div>
    </dialog>
  );
}

/**
 * The listing pages' Filter side panel: price and discount sliders (price with number inputs),
 * the searchable store checklist, and on a store page the Visit Store card. Unchecking the last
 * store clears every choice (the spec: clearing all store selections returns to the unfiltered
 * listing). From 992 px it stands beside the results; on tablets it folds away behind "Show
 * filters"; on phones (< 576 px) that button opens it as a bottom sheet.
 */
export function FilterPanel({
  priceBounds,
  discountBounds,
  value,
  onChange,
  stores,
  visitStore,
  disabled,
  total,
  countDeals,
}: FilterPanelProps) {
  const [open, setOpen] = useState(false);
  const [sheet, setSheet] = useState(false);
  const bodyId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const filtered = isPanelFiltered(value);
  const chosen =
    value.storeIds.length +
    (value.price.min !== undefined || value.price.max !== undefined ? 1 : 0) +
    (value.discount.min !== undefined || value.discount.max !== undefined ? 1 : 0);
  const fields = { priceBounds, discountBounds, stores, disabled };

  const closeSheet = () => setSheet(false);
  // Focus goes back to the button once the sheet (and the page's inertness) is gone.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !sheet) toggle.current?.focus();
    wasOpen.current = sheet;
  }, [sheet]);

  return (
    <aside
      className={open ? "filter-panel open" : "filter-panel"}
      aria-labelledby={`${bodyId}-title`}
    >
      <div className="filter-panel-head">
        <h2 id={`${bodyId}-title`}>Filter</h2>
        <button
          ref={toggle}
          type="button"
          className="btn btn-outline filter-panel-toggle"
          aria-expanded={open || sheet}
          aria-controls={sheet ? undefined : bodyId}
          onClick={() => {
            if (window.matchMedia?.(PHONE_QUERY).matches) setSheet(true);
            else setOpen((o) => !o);
          }}
        >
          {open ? "Hide filters" : "Show filters"}
          {chosen > 0 && <span className="filter-panel-chosen"> ({chosen})</span>}
        </button>
      </div>
      <div id={bodyId} className="filter-panel-body">
        {visitStore && <VisitStoreCard visitStore={visitStore} />}
        <FilterFields {...fields} value={value} onChange={onChange} />
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
      {sheet && (
        <FilterSheet
          initial={value}
          total={total}
          countDeals={countDeals}
          fields={fields}
          onClose={closeSheet}
          onApply={(next) => {
            closeSheet();
            if (JSON.stringify(next) !== JSON.stringify(value)) onChange(next);
          }}
        />
      )}
    </aside>
  );
}
