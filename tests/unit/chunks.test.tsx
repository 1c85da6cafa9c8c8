// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ChunkBoundary,
  ChunkLoadError,
  chunkFailureMessage,
  lazyChunk,
  loadChunk,
} from "../../app/lib/chunks.tsx";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("loadChunk", () => {
  it("passes a chunk through when it arrives", async () => {
    await expect(loadChunk("editor", async () => "module")).resolves.toBe("module");
  });

  it("reports a failed chunk as 'Loading chunk {n} failed'", async () => {
    const failed = loadChunk("editor", () => Promise.reject(new TypeError("Failed to fetch")));
    await expect(failed).rejects.toThrow("Loading chunk editor failed");
    await expect(failed).rejects.toBeInstanceOf(ChunkLoadError);
  });

  it("gives up after the time limit (the spec's 120 s by default)", async () => {
    vi.useFakeTimers();
    const pending = loadChunk("carousel", () => new Promise(() => {}));
    const assertion = expect(pending).rejects.toThrow("Loading chunk carousel failed");
    await vi.advanceTimersByTimeAsync(119_999);
    let settled = false;
    pending.catch(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await assertion;
  });
});

describe("chunkFailureMessage", () => {
  it("names the module of a browser's dynamic import failure", () => {
    const error = new TypeError(
      "Failed to fetch dynamically imported module: http://localhost:3000/assets/home-DIziDXDj.js",
    );
    expect(chunkFailureMessage(error)).toBe("Loading chunk home-DIziDXDj failed");
  });

  it("is null for other errors", () => {
    expect(chunkFailureMessage(new Error("boom"))).toBeNull();
    expect(chunkFailureMessage("text")).toBeNull();
  });
});

describe("ChunkBoundary", () => {
  it("shows the plain fallback when a lazy widget cannot load, and reports it", async () => {
    const report = vi.spyOn(console, "error").mockImplementation(() => {});
    const Widget = lazyChunk("wishlist-carousel", (): Promise<{ default: () => null }> =>
      Promise.reject(new Error("offline")),
    );
    render(
      <ChunkBoundary fallback={<p>Plain list</p>}>
        <Suspense fallback={<p>Loading</p>}>
          <Widget />
        </Suspense>
      </ChunkBoundary>,
    );
    expect(await screen.findByText("Plain list")).toBeTruthy();
    expect(report.mock.calls.flat().map(String)).toContain(
      "Loading chunk wishlist-carousel failed",
    );
  });
});
