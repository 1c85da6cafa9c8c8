// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadFilterChoices, resetFilterChoices, useFilterChoices } from "./home-filter-choices.ts";

function Choices() {
  const choices = useFilterChoices();
  return <p>{choices ? choices.merchants.map((m) => m.title).join(", ") : "none"}</p>;
}

const lists: Record<string, unknown> = {
  "/api/stores_list": {
    status: "true",
    response: { selected_data: [{ id: 1, store_id: 1, title: "Amazon", slug: "amazon" }] },
  },
  "/api/category_list": {
    status: "true",
    response: { selected_data: [{ id: 7, category_id: 7, title: "Art Supplies" }] },
  },
};

function serve(status: number) {
  return vi.fn(async (url: string) => new Response(JSON.stringify(lists[url] ?? {}), { status }));
}

afterEach(() => {
  cleanup();
  resetFilterChoices();
  vi.unstubAllGlobals();
});

describe("the home page's filter choices", () => {
  it("render as none on the server and load from the spec's two GET calls once idle", async () => {
    const fetch = serve(200);
    vi.stubGlobal("fetch", fetch);
    expect(renderToString(<Choices />)).toContain("none");
    render(<Choices />);
    expect(await screen.findByText("Amazon", undefined, { timeout: 3_000 })).toBeTruthy();
    expect(fetch.mock.calls.map((call) => call[0]).sort()).toEqual([
      "/api/category_list",
      "/api/stores_list",
    ]);
    // Kept: a second page that shows them asks for nothing more.
    cleanup();
    render(<Choices />);
    expect(screen.getByText("Amazon")).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("stay unloaded after a failed call, and the next reach for a select tries again", async () => {
    vi.stubGlobal("fetch", serve(503));
    render(<Choices />);
    await act(async () => {
      loadFilterChoices();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.getByText("none")).toBeTruthy();

    vi.stubGlobal("fetch", serve(200));
    await act(async () => loadFilterChoices());
    expect(await screen.findByText("Amazon")).toBeTruthy();
  });
});
