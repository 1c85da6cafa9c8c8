// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const navigation: { state: "idle" | "loading" } = { state: "idle" };
vi.mock("react-router", () => ({ useNavigation: () => navigation }));

const { NavigationProgress, PROGRESS_DELAY_MS } =
  await import("../../app/components/NavigationProgress.tsx");

beforeEach(() => {
  vi.useFakeTimers();
  navigation.state = "idle";
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const bar = () => screen.queryByRole("progressbar", { name: "Loading page" });

describe("NavigationProgress", () => {
  it("shows nothing for a navigation quicker than the delay", () => {
    const view = render(<NavigationProgress />);
    navigation.state = "loading";
    view.rerender(<NavigationProgress />);
    act(() => vi.advanceTimersByTime(PROGRESS_DELAY_MS - 50));
    expect(bar()).toBeNull();
    navigation.state = "idle";
    view.rerender(<NavigationProgress />);
    act(() => vi.advanceTimersByTime(PROGRESS_DELAY_MS));
    expect(bar()).toBeNull();
  });

  it("shows the bar once a navigation outlasts the delay, and hides it when it ends", () => {
    const view = render(<NavigationProgress />);
    navigation.state = "loading";
    view.rerender(<NavigationProgress />);
    act(() => vi.advanceTimersByTime(PROGRESS_DELAY_MS + 1));
    expect(bar()).not.toBeNull();
    navigation.state = "idle";
    view.rerender(<NavigationProgress />);
    expect(bar()).toBeNull();
  });
});
