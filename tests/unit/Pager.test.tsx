// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { Pager, pageHref, pagerItems } from "../../app/components/Pager.tsx";

afterEach(cleanup);

function renderPager(page: number, lastPage: number) {
  return render(
    <MemoryRouter initialEntries={[`/newdeals?store_id=4&page=${page}`]}>
      <Pager
        page={page}
        lastPage={lastPage}
        hrefFor={(n) => pageHref(new URLSearchParams(`store_id=4&page=${page}`), n)}
        label="New Deals pages"
      />
    </MemoryRouter>,
  );
}

describe("pagerItems", () => {
  it("lists up to 7 pages in full", () => {
    expect(pagerItems(1, 1)).toEqual([1]);
    expect(pagerItems(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("shows a window of 7 with ellipses beyond 7 pages, hugging either end", () => {
    expect(pagerItems(1, 20)).toEqual([1, 2, 3, 4, 5, "gap-end", 20]);
    expect(pagerItems(4, 20)).toEqual([1, 2, 3, 4, 5, "gap-end", 20]);
    expect(pagerItems(5, 20)).toEqual([1, "gap-start", 4, 5, 6, "gap-end", 20]);
    expect(pagerItems(10, 20)).toEqual([1, "gap-start", 9, 10, 11, "gap-end", 20]);
    expect(pagerItems(16, 20)).toEqual([1, "gap-start", 15, 16, 17, "gap-end", 20]);
    expect(pagerItems(17, 20)).toEqual([1, "gap-start", 16, 17, 18, 19, 20]);
    expect(pagerItems(20, 20)).toEqual([1, "gap-start", 16, 17, 18, 19, 20]);
    expect(pagerItems(2000, 66_667)).toEqual([1, "gap-start", 1999, 2000, 2001, "gap-end", 66_667]);
    for (let page = 1; page <= 30; page++) {
      const items = pagerItems(page, 30);
      expect(items).toHaveLength(7);
      expect(items).toContain(page);
    }
  });
});

describe("Pager", () => {
  it("renders nothing for a single page", () => {
    const { container } = renderPager(1, 1);
    expect(container.innerHTML).toBe("");
  });

  it("links every listed page with ?page=, keeping the rest of the query", () => {
    renderPager(1, 4);
    const nav = screen.getByRole("navigation", { name: "New Deals pages" });
    const links = within(nav).getAllByRole("link", { name: /^Page \d+$/ });
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "/newdeals?store_id=4&page=1",
      "/newdeals?store_id=4&page=2",
      "/newdeals?store_id=4&page=3",
      "/newdeals?store_id=4&page=4",
    ]);
  });

  it("marks the current page with aria-current and offers Previous and Next", () => {
    renderPager(3, 10);
    const current = screen.getByRole("link", { name: "Page 3" });
    expect(current.getAttribute("aria-current")).toBe("page");
    expect(screen.getByRole("link", { name: "Page 4" }).getAttribute("aria-current")).toBeNull();
    expect(screen.getByRole("link", { name: "Previous" }).getAttribute("href")).toBe(
      "/newdeals?store_id=4&page=2",
    );
    expect(screen.getByRole("link", { name: "Next" }).getAttribute("href")).toBe(
      "/newdeals?store_id=4&page=4",
    );
    expect(screen.getAllByText("…")).toHaveLength(1);
  });

  it("disables Previous on the first page and Next on the last", () => {
    renderPager(1, 3);
    expect(screen.queryByRole("link", { name: "Previous" })).toBeNull();
    expect(screen.getByText("Previous").getAttribute("aria-disabled")).toBe("true");
    cleanup();
    renderPager(3, 3);
    expect(screen.queryByRole("link", { name: "Next" })).toBeNull();
    expect(screen.getByText("Next").getAttribute("aria-disabled")).toBe("true");
  });
});
