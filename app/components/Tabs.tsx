import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";

export interface TabItem<K extends string> {
  key: K;
  label: string;
  panel: ReactNode;
}

interface TabsProps<K extends string> {
  label: string;
  tabs: TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
}

/**
 * WAI-ARIA tabs: one tab stop for the tab list, Left/Right (wrapping), Home and End move between
 * tabs and select them; only the selected panel is shown. Panels stay mounted so a half-filled form
 * keeps its input when the other tab is visited.
 */
export function Tabs<K extends string>({ label, tabs, selected, onSelect }: TabsProps<K>) {
  const baseId = useId();
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const tabId = (key: K) => `${baseId}-tab-${key}`;
  const panelId = (key: K) => `${baseId}-panel-${key}`;

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const current = tabs.findIndex((tab) => tab.key === selected);
    const last = tabs.length - 1;
    const next =
      event.key === "ArrowRight"
        ? current === last
          ? 0
          : current + 1
        : event.key === "ArrowLeft"
          ? current === 0
            ? last
            : current - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    onSelect(tabs[next]!.key);
    tabRefs.current[next]?.focus();
  }

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list" onKeyDown={onKeyDown}>
        {tabs.map((tab, index) => {
          const isSelected = tab.key === selected;
          return (
            <button
              key={tab.key}
              ref={(element) => {
                tabRefs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={tabId(tab.key)}
              aria-selected={isSelected}
              aria-controls={panelId(tab.key)}
              tabIndex={isSelected ? 0 : -1}
              className={isSelected ? "tab active" : "tab"}
              onClick={() => onSelect(tab.key)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.key}
          role="tabpanel"
          id={panelId(tab.key)}
          aria-labelledby={tabId(tab.key)}
          hidden={tab.key !== selected}
          className="tab-panel"
        >
          {tab.panel}
        </div>
      ))}
    </div>
  );
}
