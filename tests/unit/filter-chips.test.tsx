// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EmptySuggestions, FilterChips, activeFilters } from "../../app/components/FilterChips.tsx";
import { EMPTY_PANEL, type PanelFilter } from "../../core/listings/schema.ts";

afterEach(cleanup);

const STORES = [
  { id: 1, title: "Amazon", slug: "amazon", deal_count: 12 },
  { id: 4, title: "Staples", slug: "staples", deal_count: 3 },
];

const PANEL: PanelFilter = {
  storeIds: [1, 4],
  price: { min: 5, max: 40 },
  discount: { min: 20 },
};

function inRouter(element: React.ReactElement) {
  const router = createMemoryRouter([{ path: "/", element }]);
  render(<RouterProvider router={router} />);
}

describe("activeFilters", () => {
  it("names each choice and what removing it leaves", () => {
    const filters = activeFilters(PANEL, STORES);
    expect(filters.map((f) => f.label)).toEqual([
      "Amazon",
      "Staples",
      "Price $5 – $40",
      "Discount from 20%",
    ]);
    expect(filters[0]!.without.storeIds).toEqual([4]);
    expect(filters[2]!.without).toEqual({ ...PANEL, price: {} });
    expect(activeFilters({ ...EMPTY_PANEL, price: { max: 9 } })[0]!.label).toBe("Price up to $9");
  });

  it("clears everything when the last store is removed (the spec's unfiltered listing)", () => {
    const [only] = activeFilters({ ...PANEL, storeIds: [4] }, STORES);
    expect(only!.without).toEqual(EMPTY_PANEL);
  });
});

describe("FilterChips", () => {
  it("removes one filter per chip, or all at once", () => {
    const onChange = vi.fn();
    render(<FilterChips filters={activeFilters(PANEL, STORES)} onChange={onChange} />);
    fireEvent.click(screen.getByRole("button", { name: /Price \$5 – \$40.*remove/ }));
    expect(onChange).toHaveBeenLastCalledWith({ ...PANEL, price: {} });
    fireEvent.click(screen.getByRole("button", { name: "Clear all" }));
    expect(onChange).toHaveBeenLastCalledWith(EMPTY_PANEL);
  });

  it("shows nothing without filters", () => {
    const { container } = render(<FilterChips filters={[]} onChange={vi.fn()} />);
    expect(container.textContent).toBe("");
  });
});

describe("EmptySuggestions", () => {
  it("offers to loosen each filter, clear all, or see the newest deals", () => {
    const onChange = vi.fn();
    inRouter(
      <EmptySuggestions panel={PANEL} filters={activeFilters(PANEL, STORES)} onChange={onChange} />,
    );
    fireEvent.click(screen.getByRole("button", { name: "Remove “Discount from 20%”" }));
    expect(onChange).toHaveBeenLastCalledWith({ ...PANEL, discount: {} });
    fireEvent.click(screen.getByRole("button", { name: "Clear all filters" }));
    expect(onChange).toHaveBeenLastCalledWith(EMPTY_PANEL);
    expect(screen.getByRole("link", { name: "See the newest deals" }).getAttribute("href")).toBe(
      "/newdeals",
    );
  });
});
