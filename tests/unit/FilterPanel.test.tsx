// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FilterPanel, sliderBounds } from "../../app/components/FilterPanel.tsx";
import { EMPTY_PANEL, type PanelFilter } from "../../core/listings/schema.ts";

afterEach(cleanup);

const STORES = [
  { id: 1, title: "Amazon", slug: "amazon", deal_count: 12 },
  { id: 2, title: "Target", slug: "target", deal_count: 7 },
  { id: 4, title: "Staples", slug: "staples", deal_count: 3 },
];

function renderPanel(
  value: PanelFilter = EMPTY_PANEL,
  extra: Partial<Parameters<typeof FilterPanel>[0]> = {},
) {
  const onChange = vi.fn();
  render(
    <FilterPanel
      priceBounds={{ min: 2, max: 950 }}
      discountBounds={{ min: 0, max: 80 }}
      value={value}
      onChange={onChange}
      stores={STORES}
      total={40}
      countDeals={() => Promise.resolve(40)}
      {...extra}
    />,
  );
  return onChange;
}

function handle(name: string) {
  return screen.getByRole("slider", { name });
}

describe("sliderBounds", () => {
  it("widens the response's bounds to whole numbers (step 1)", () => {
    expect(sliderBounds(2.79, 949.99)).toEqual({ min: 2, max: 950 });
    expect(sliderBounds(null, 10)).toBeNull();
  });
});

describe("FilterPanel sliders", () => {
  it("show two labelled handles per range, bounded by the response's ends", () => {
    renderPanel();
    expect(screen.getByRole("group", { name: "Price" })).toBeTruthy();
    expect(screen.getByRole("group", { name: "Discount" })).toBeTruthy();
    const min = handle("Minimum price");
    const max = handle("Maximum price");
    expect(min.getAttribute("aria-valuemin")).toBe("2");
    expect(min.getAttribute("aria-valuemax")).toBe("950");
    expect(min.getAttribute("aria-valuenow")).toBe("2");
    expect(max.getAttribute("aria-valuenow")).toBe("950");
    expect(handle("Maximum discount").getAttribute("aria-valuetext")).toBe("80%");
    expect(screen.getByText("$2 – $950")).toBeTruthy();
  });

  it("move by 1 with the keyboard and report the range when let go", () => {
    const onChange = renderPanel();
    const min = handle("Minimum price");
    fireEvent.keyDown(min, { key: "ArrowRight", code: "ArrowRight", keyCode: 39 });
    fireEvent.keyUp(min, { key: "ArrowRight", code: "ArrowRight", keyCode: 39 });
    expect(min.getAttribute("aria-valuenow")).toBe("3");
    expect(onChange).toHaveBeenLastCalledWith({
      ...EMPTY_PANEL,
      price: { min: 3, max: undefined },
    });
  });

  it("never let the handles cross", () => {
    renderPanel({ ...EMPTY_PANEL, discount: { min: 10, max: 12 } });
    for (let i = 0; i < 5; i++) {
      const min = handle("Minimum discount");
      fireEvent.keyDown(min, { key: "ArrowRight", code: "ArrowRight", keyCode: 39 });
      fireEvent.keyUp(min, { key: "ArrowRight", code: "ArrowRight", keyCode: 39 });
      const low = Number(handle("Minimum discount").getAttribute("aria-valuenow"));
      const high = Number(handle("Maximum discount").getAttribute("aria-valuenow"));
      expect(low).toBeGreaterThan(10);
      expect(low).toBeLessThanOrEqual(high);
    }
  });

  it("show a single value instead of a slider when every deal has the same price", () => {
    renderPanel(EMPTY_PANEL, { priceBounds: { min: 5, max: 5 } });
    expect(screen.queryByRole("slider", { name: "Minimum price" })).toBeNull();
    expect(screen.getByText("$5")).toBeTruthy();
  });
});

describe("FilterPanel store checklist", () => {
  it("filters the stores by the search box", () => {
    renderPanel();
    const list = screen.getByRole("group", { name: "Stores" });
    expect(within(list).getAllByRole("checkbox")).toHaveLength(3);
    fireEvent.change(screen.getByLabelText("Search stores"), { target: { value: "tar" } });
    expect(within(list).getAllByRole("checkbox")).toHaveLength(1);
    expect(within(list).getByLabelText(/Target/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Search stores"), { target: { value: "zzz" } });
    expect(within(list).queryAllByRole("checkbox")).toHaveLength(0);
    expect(screen.getByText(/No store matches/)).toBeTruthy();
  });

  it("reports checked stores", () => {
    const onChange = renderPanel({ ...EMPTY_PANEL, storeIds: [1] });
    fireEvent.click(screen.getByLabelText(/Staples/));
    expect(onChange).toHaveBeenLastCalledWith({ ...EMPTY_PANEL, storeIds: [1, 4] });
  });

  it("returns to the unfiltered listing when the last store is unchecked", () => {
    const onChange = renderPanel({ storeIds: [2], price: { min: 10, max: 40 }, discount: {} });
    fireEvent.click(screen.getByLabelText(/Target/));
    expect(onChange).toHaveBeenLastCalledWith(EMPTY_PANEL);
  });

  it("offers Clear filters only in filtered mode", () => {
    renderPanel();
    expect(screen.queryByRole("button", { name: "Clear filters" })).toBeNull();
    cleanup();
    const onChange = renderPanel({ ...EMPTY_PANEL, discount: { min: 20 } });
    fireEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    expect(onChange).toHaveBeenLastCalledWith(EMPTY_PANEL);
  });
});

describe("FilterPanel on a store page", () => {
  it("shows the Visit Store card, opening the store in a new tab, and no checklist", () => {
    renderPanel(EMPTY_PANEL, {
      stores: undefined,
      visitStore: { title: "Amazon", link: "https://www.amazon.com/", image_url: "/media/a.webp" },
    });
    const link = screen.getByRole("link", { name: /Visit Store/ });
    expect(link.getAttribute("href")).toBe("https://www.amazon.com/");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("nofollow noopener sponsored");
    expect(screen.getByAltText("Amazon logo")).toBeTruthy();
    expect(screen.queryByRole("group", { name: "Stores" })).toBeNull();
  });

  it("collapses behind a Show filters button on small screens", () => {
    renderPanel();
    const toggle = screen.getByRole("button", { name: "Show filters" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(toggle);
    expect(screen.getByRole("button", { name: "Hide filters" }).getAttribute("aria-expanded")).toBe(
      "true",
    );
  });
});

describe("the price's number inputs", () => {
  it("move with the slider's value and apply a typed range on Enter", () => {
    const onChange = renderPanel({ ...EMPTY_PANEL, price: { min: 10 } });
    const min = screen.getByRole("spinbutton", { name: "Min price" });
    const max = screen.getByRole("spinbutton", { name: "Max price" });
    expect(min).toHaveProperty("value", "10");
    expect(max).toHaveProperty("value", "950");
    fireEvent.change(max, { target: { value: "120" } });
    fireEvent.keyDown(max, { key: "Enter" });
    expect(onChange).toHaveBeenCalledWith({ ...EMPTY_PANEL, price: { min: 10, max: 120 } });
    expect(handle("Maximum price").getAttribute("aria-valuenow")).toBe("120");
  });

  it("refuse a range that is crossed or out of bounds, saying why", () => {
    const onChange = renderPanel();
    const min = screen.getByRole("spinbutton", { name: "Min price" });
    fireEvent.change(min, { target: { value: "2000" } });
    fireEvent.blur(min);
    expect(screen.getByRole("alert").textContent).toBe("Enter a price between 2 and 950.");
    expect(min.getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(min, { target: { value: "500" } });
    fireEvent.change(screen.getByRole("spinbutton", { name: "Max price" }), {
      target: { value: "100" },
    });
    fireEvent.blur(min);
    expect(screen.getByRole("alert").textContent).toBe(
      "The minimum price must not be more than the maximum.",
    );
    expect(onChange).not.toHaveBeenCalled();
  });
});
