// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const navigate = vi.fn();
vi.mock("react-router", () => ({ useNavigate: () => navigate }));

const { useClientLinks } = await import("../../app/lib/client-links.ts");

function Grid() {
  const follow = useClientLinks();
  return (
    <div onClick={follow}>
      <a href="/post/abc/some-deal?x=1#c">
        <span>Deal title</span>
      </a>
      <a href="https://elsewhere.example/page">Elsewhere</a>
      <a href="/post/new-tab" target="_blank">
        New tab
      </a>
      <a href="/files/list.csv" download>
        Download
      </a>
    </div>
  );
}

beforeEach(() => navigate.mockReset());
afterEach(cleanup);

describe("useClientLinks", () => {
  it("navigates in the page for a plain click on a same-site link, from a child of the link too", () => {
    render(<Grid />);
    const click = fireEvent.click(screen.getByText("Deal title"));
    expect(click).toBe(false); // default prevented: no full page load
    expect(navigate).toHaveBeenCalledWith("/post/abc/some-deal?x=1#c");
  });

  it("leaves modified clicks, other buttons, other sites, other targets and downloads to the browser", () => {
    render(<Grid />);
    const link = screen.getByText("Deal title");
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }])
      expect(fireEvent.click(link, init)).toBe(true);
    expect(fireEvent.click(link, { button: 1 })).toBe(true);
    expect(fireEvent.click(screen.getByText("Elsewhere"))).toBe(true);
    expect(fireEvent.click(screen.getByText("New tab"))).toBe(true);
    expect(fireEvent.click(screen.getByText("Download"))).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
  });
});
