// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DailyChart, niceMax } from "../../app/components/console/DailyChart.tsx";

afterEach(cleanup);

const points = [
  { day: "2026-03-01", posts: 4, signups: 1 },
  { day: "2026-03-02", posts: 0, signups: 0 },
  { day: "2026-03-03", posts: 13, signups: 2 },
];

describe("DailyChart", () => {
  it("is one image with a title and a summary of the totals", () => {
    render(<DailyChart points={points} />);
    const chart = screen.getByRole("img", {
      name: /Posts and sign-ups per day, last 3 days From Mar 1 to Mar 3: 17 posts and 3 sign-ups\./,
    });
    // One bar per series and day, the tallest reaching the top of the scale (20).
    const bars = chart.querySelectorAll("rect");
    expect(bars).toHaveLength(6);
    const heights = [...bars].map((bar) => Number(bar.getAttribute("height")));
    // Bars go day by day, posts then sign-ups; a day without any has none to see.
    expect(heights.slice(2, 4)).toEqual([0, 0]);
    expect(Math.max(...heights)).toBeCloseTo((13 / 20) * (220 - 12 - 28), 5);
  });

  it("gives the numbers day by day as a table", () => {
    render(<DailyChart points={points} />);
    const table = screen.getByRole("table", { name: "Posts and sign-ups per day" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      "Mar 1, 202641",
      "Mar 2, 202600",
      "Mar 3, 2026132",
    ]);
  });
});

describe("niceMax", () => {
  it("rounds the scale up to 1, 2 or 5 times a power of ten", () => {
    expect([0, 1, 3, 7, 13, 20, 21, 99, 480].map(niceMax)).toEqual([
      1, 1, 5, 10, 20, 20, 50, 100, 500,
    ]);
  });
});
