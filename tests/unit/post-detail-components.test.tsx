// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { createRoutesStub } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { PresentedComment } from "../../core/posts/presenter.ts";
import { CommentThread } from "../../app/components/CommentThread.tsx";
import { CouponCode } from "../../app/components/CouponCode.tsx";
import { FeaturedStoresCarousel } from "../../app/components/FeaturedStoresCarousel.tsx";
import { LikeButtons } from "../../app/components/LikeButtons.tsx";
import { postFormSchemas } from "../../app/lib/lazy-schemas.ts";

const NOW = new Date("2026-06-15T12:00:00Z");

function comment(
  id: number,
  parent: number | "",
  minutesAgo: number,
  replies: PresentedComment[] = [],
) {
  return {
    id,
    user_id: 100 + id,
    user_name: `Member ${id}`,
    user_image: "",
    message: `<p>Comment ${id}</p>`,
    created_at: new Date(NOW.getTime() - minutesAgo * 60_000).toISOString(),
    comment_id: parent,
    product_id: 9,
    product_type: "d",
    is_deleted: false,
    likes_count: 0,
    comments_replies: replies,
    user_verified_educator: false,
    user_level: "",
  } satisfies PresentedComment;
}

const THREAD = [comment(1, "", 3 * 24 * 60, [comment(2, 1, 90)]), comment(3, "", 0)];

/** Renders a component inside a data router, with /login as a page to land on. */
function renderInRouter(element: ReactNode) {
  const Stub = createRoutesStub([
    { path: "/post/x/y", Component: () => <>{element}</> },
    { path: "/login", Component: () => <h1>Login page</h1> },
  ]);
  return render(<Stub initialEntries={["/post/x/y"]} />);
}

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

beforeEach(() => {
  document.cookie = "XSRF-TOKEN=xsrf-token-for-tests-0001";
});

afterEach(() => {
  cleanup();
  // What a visitor tried before signing in (app/lib/pending-action.ts) belongs to one test.
  window.sessionStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("CommentThread", () => {
  // The reply box checks its text with a schema it loads on first send (app/lib/lazy-schemas.ts);
  // loaded here, a busy machine's cold import of zod cannot outlast findByText's second.
  beforeAll(async () => {
    await postFormSchemas();
  });

  it("nests replies under their comment with time-ago labels", async () => {
    renderInRouter(
      <CommentThread comments={THREAD} postId={9} postType="d" viewerId={null} now={NOW} />,
    );
    const first = (await screen.findByText("Comment 1")).closest("li")!;
    expect(first.textContent).toContain("3 days ago");
    expect(first.querySelector(".comment-list.replies")!.textContent).toContain("Comment 2");
    expect(first.textContent).toContain("1 hour ago");
    expect(screen.getByText("Comment 3").closest("li")!.textContent).toContain("Just now");
  });

  it("sends a visitor who clicks Reply to /login", async () => {
    renderInRouter(
      <CommentThread comments={THREAD} postId={9} postType="d" viewerId={null} now={NOW} />,
    );
    fireEvent.click((await screen.findAllByRole("button", { name: "Reply" }))[0]!);
    expect(await screen.findByRole("heading", { name: "Login page" })).toBeTruthy();
  });

  it("opens a reply box on Reply, closes it on Cancel, and refuses blank text without a call", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    renderInRouter(
      <CommentThread comments={THREAD} postId={9} postType="d" viewerId={7} now={NOW} />,
    );
    fireEvent.click((await screen.findAllByRole("button", { name: "Reply" }))[0]!);
    const box = screen.getByRole("textbox", { name: "Reply to Member 1" });
    expect(document.activeElement).toBe(box);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("textbox", { name: "Reply to Member 1" })).toBeNull();

    fireEvent.click(screen.getAllByRole("button", { name: "Reply" })[0]!);
    fireEvent.change(screen.getByRole("textbox", { name: "Reply to Member 1" }), {
      target: { value: " \n\u200b " },
    });
    fireEvent.click(screen.getByRole("button", { name: "POST REPLY" }));
    expect(await screen.findByText("Please enter a comment before posting.")).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("posts a reply with the parent's id and the XSRF header, and shows the server's message on failure", async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse(429, { status: false, message: "Too many requests." }),
    );
    vi.stubGlobal("fetch", fetchMock);
    renderInRouter(
      <CommentThread comments={THREAD} postId={9} postType="d" viewerId={7} now={NOW} />,
    );
    fireEvent.click((await screen.findAllByRole("button", { name: "Reply" }))[0]!);
    fireEvent.change(screen.getByRole("textbox", { name: "Reply to Member 1" }), {
      target: { value: "Thanks!" },
    });
    fireEvent.click(screen.getByRole("button", { name: "POST REPLY" }));
    expect(await screen.findByText("Too many requests.")).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/product_add_comment");
    expect((init.headers as Record<string, string>)["x-xsrf-token"]).toBe(
      "xsrf-token-for-tests-0001",
    );
    expect(JSON.parse(init.body as string)).toEqual({
      user_id: 7,
      post_id: 9,
      post_type: "d",
      comment_id: 1,
      comment_text: "Thanks!",
    });
  });
});

describe("LikeButtons", () => {
  it("shows is_liked as the pressed state of thumbs up or thumbs down", async () => {
    renderInRouter(
      <LikeButtons
        postId={9}
        postType="d"
        isLiked={2}
        likes={4}
        unlikes={1}
        temperature={30}
        viewerId={7}
      />,
    );
    expect(
      (await screen.findByRole("button", { name: /^Like/ })).getAttribute("aria-pressed"),
    ).toBe("false");
    expect(screen.getByRole("button", { name: /^Unlike/ }).getAttribute("aria-pressed")).toBe(
      "true",
    );
  });

  it("sends a visitor to /login and a member's click to the API", async () => {
    renderInRouter(
      <LikeButtons
        postId={9}
        postType="g"
        isLiked={-1}
        likes={0}
        unlikes={0}
        temperature={0}
        viewerId={null}
      />,
    );
    fireEvent.click(await screen.findByRole("button", { name: /^Unlike/ }));
    expect(await screen.findByRole("heading", { name: "Login page" })).toBeTruthy();
    // The vote waits for the visitor's return (app/lib/pending-action.ts).
    expect(window.sessionStorage.getItem("chalkboard.pendingAction")).toContain(
      '"btnType":"unlike"',
    );
    cleanup();
    window.sessionStorage.clear();

    const fetchMock = vi.fn(async () => jsonResponse(200, { status: "true", message: "ok" }));
    vi.stubGlobal("fetch", fetchMock);
    renderInRouter(
      <LikeButtons
        postId={9}
        postType="g"
        isLiked={-1}
        likes={0}
        unlikes={0}
        temperature={0}
        viewerId={7}
      />,
    );
    fireEvent.click(await screen.findByRole("button", { name: /^Like/ }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/product_like_unlike");
    expect(JSON.parse(init.body as string)).toEqual({
      user_id: 7,
      post_id: 9,
      post_type: "g",
      btn_type: "like",
    });
  });
});

describe("LikeButtons, optimistic", () => {
  it("shows a vote at once, and rolls it back with the server's message when refused", async () => {
    let answer: (response: Response) => void = () => {};
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    renderInRouter(
      <LikeButtons
        postId={9}
        postType="d"
        isLiked={-1}
        likes={4}
        unlikes={1}
        temperature={30}
        viewerId={7}
      />,
    );
    const like = await screen.findByRole("button", { name: /^Like/ });
    fireEvent.click(like);
    // Before the server answers: pressed, one more like, 10° warmer, and no "Loading…" line.
    expect(like.getAttribute("aria-pressed")).toBe("true");
    expect(like.textContent).toContain("5");
    expect(screen.getByText("40°")).toBeTruthy();
    expect(screen.queryByText(/Loading/)).toBeNull();
    await act(async () => {
      answer(jsonResponse(429, { status: false, message: "Too many requests. Try again later." }));
    });
    expect(like.getAttribute("aria-pressed")).toBe("false");
    expect(like.textContent).toContain("4");
    expect(screen.getByText("30°")).toBeTruthy();
    expect(screen.getByText("Too many requests. Try again later.")).toBeTruthy();
  });
});

describe("LikeButtons, quick taps", () => {
  it("sends a tap made while the previous vote is on its way once that one is answered, and shows it at once", async () => {
    const answers: ((response: Response) => void)[] = [];
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => answers.push(resolve)));
    vi.stubGlobal("fetch", fetchMock);
    renderInRouter(
      <LikeButtons
        postId={9}
        postType="d"
        isLiked={-1}
        likes={4}
        unlikes={1}
        temperature={30}
        viewerId={7}
      />,
    );
    const like = await screen.findByRole("button", { name: /^Like/ });
    const unlike = screen.getByRole("button", { name: /^Unlike/ });
    fireEvent.click(like);
    fireEvent.click(unlike);
    // The second tap shows at once, but waits for the first answer before it is sent.
    expect(unlike.getAttribute("aria-pressed")).toBe("true");
    expect(like.getAttribute("aria-pressed")).toBe("false");
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(async () => {
      answers[0]!(
        jsonResponse(200, { status: true, is_liked: 1, likes: 5, unlikes: 1, temperature: 40 }),
      );
    });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const [, second] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(JSON.parse(String(second.body))).toMatchObject({ btn_type: "unlike" });
    await act(async () => {
      answers[1]!(
        jsonResponse(200, { status: true, is_liked: 2, likes: 4, unlikes: 2, temperature: 20 }),
      );
    });
    expect(unlike.getAttribute("aria-pressed")).toBe("true");
    expect(unlike.textContent).toContain("2");
    expect(screen.getByText("20°")).toBeTruthy();
  });
});

describe("CouponCode", () => {
  it("copies with the Clipboard API and confirms with 'Copied!' for 3 seconds", async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    render(<CouponCode code="SMART10" />);
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    });
    expect(writeText).toHaveBeenCalledWith("SMART10");
    expect(screen.getByRole("status").textContent).toBe("Copied!");
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByRole("status").textContent).toBe("");
  });

  it("falls back to the copy command, and else selects the code for the keyboard", async () => {
    vi.stubGlobal("navigator", { ...navigator, clipboard: undefined });
    const execCommand = vi.fn(() => true);
    document.execCommand = execCommand;
    render(<CouponCode code="SAVE5" />);
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    });
    expect(execCommand).toHaveBeenCalledWith("copy");
    expect(screen.getByRole("status").textContent).toBe("Copied!");

    execCommand.mockReturnValue(false);
    cleanup();
    render(<CouponCode code="SAVE6" />);
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    });
    expect(screen.getByRole("status").textContent).toBe("Press Ctrl+C to copy the code.");
    expect(window.getSelection()?.toString()).toBe("SAVE6");
  });
});

describe("FeaturedStoresCarousel", () => {
  const stores = ["amazon", "target", "walmart"].map((slug, i) => ({
    id: i + 1,
    slug,
    title: slug[0]!.toUpperCase() + slug.slice(1),
    image_url: `/media/demo/store-${slug}.webp`,
  }));
  const firstHref = () => screen.getAllByRole("link")[0]!.getAttribute("href");

  it("lists every store once as a link to its page and steps one store a second", async () => {
    vi.useFakeTimers();
    renderInRouter(<FeaturedStoresCarousel stores={stores} />);
    await act(async () => {});
    expect(screen.getAllByRole("link").map((a) => a.getAttribute("href"))).toEqual([
      "/store/amazon",
      "/store/target",
      "/store/walmart",
    ]);
    expect(screen.getByRole("img", { name: "Amazon" })).toBeTruthy();
    act(() => vi.advanceTimersByTime(999));
    expect(firstHref()).toBe("/store/amazon");
    act(() => vi.advanceTimersByTime(1));
    expect(firstHref()).toBe("/store/target");
    act(() => vi.advanceTimersByTime(2000));
    expect(firstHref()).toBe("/store/amazon");
    expect(screen.getAllByRole("link")).toHaveLength(3);
  });

  it("pauses while pointed at or focused", async () => {
    vi.useFakeTimers();
    renderInRouter(<FeaturedStoresCarousel stores={stores} />);
    await act(async () => {});
    const viewport = document.querySelector(".featured-stores-viewport")!;
    fireEvent.mouseEnter(viewport);
    act(() => vi.advanceTimersByTime(3000));
    expect(firstHref()).toBe("/store/amazon");
    fireEvent.mouseLeave(viewport);
    act(() => vi.advanceTimersByTime(1000));
    expect(firstHref()).toBe("/store/target");
    fireEvent.focus(screen.getAllByRole("link")[1]!);
    act(() => vi.advanceTimersByTime(3000));
    expect(firstHref()).toBe("/store/target");
  });

  it("stands still for visitors who ask for reduced motion", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: query.includes("reduce"),
      media: query,
    }));
    renderInRouter(<FeaturedStoresCarousel stores={stores} />);
    await act(async () => {});
    act(() => vi.advanceTimersByTime(5000));
    expect(firstHref()).toBe("/store/amazon");
  });
});
