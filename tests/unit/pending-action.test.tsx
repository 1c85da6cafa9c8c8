// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { createRoutesStub, useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CommentForm } from "../../app/components/CommentForm.tsx";
import { CommentThread } from "../../app/components/CommentThread.tsx";
import { FollowButton } from "../../app/components/FollowButton.tsx";
import { loginPath } from "../../app/lib/pending-action.ts";
import type { PresentedComment } from "../../core/posts/presenter.ts";

// "Sign in, then do what you tried" (record 0035): what a visitor tries is kept for the page and
// done when they are back on it, signed in.

const PAGE = "/post/abc123/lego-bricks";

function LoginPage() {
  const location = useLocation();
  return <h1>Login page {location.search}</h1>;
}

/** Renders `element` at PAGE inside a data router, with /login as a page to land on. */
function renderAt(element: ReactNode) {
  const Stub = createRoutesStub([
    { path: "/post/:uniqueId/:slug", Component: () => <>{element}</> },
    { path: "/profile/:id", Component: () => <>{element}</> },
    { path: "/login", Component: LoginPage },
  ]);
  return render(<Stub initialEntries={[PAGE]} />);
}

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

const REPLY_TO: PresentedComment = {
  id: 5,
  user_id: 105,
  user_name: "Member 5",
  user_image: "",
  message: "<p>Where did you find it?</p>",
  created_at: new Date().toISOString(),
  comment_id: "",
  product_id: 9,
  product_type: "d",
  is_deleted: false,
  likes_count: 0,
  comments_replies: [],
  user_verified_educator: false,
  user_level: "",
};

beforeEach(() => {
  document.cookie = "XSRF-TOKEN=xsrf-token-for-tests-0001";
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

describe("loginPath", () => {
  it("carries a local page and drops anything else", () => {
    expect(loginPath(PAGE)).toBe(`/login?next=${encodeURIComponent(PAGE)}`);
    expect(loginPath("/newdeals?page=2", "/register")).toBe(
      "/register?next=%2Fnewdeals%3Fpage%3D2",
    );
    expect(loginPath("/")).toBe("/login");
    expect(loginPath("//evil.example")).toBe("/login");
  });
});

describe("a comment typed before signing in", () => {
  it("is kept and posted on return, once", async () => {
    renderAt(
      <CommentForm
        postId={9}
        postType="d"
        viewerId={null}
        label="Your comment"
        submitLabel="LEAVE A COMMENT"
      />,
    );
    fireEvent.change(await screen.findByRole("textbox", { name: /Your comment/ }), {
      target: { value: "Found it at half price!" },
    });
    fireEvent.click(screen.getByRole("button", { name: "LEAVE A COMMENT" }));
    expect(
      await screen.findByRole("heading", { name: `Login page ?next=${encodeURIComponent(PAGE)}` }),
    ).toBeTruthy();
    cleanup();

    const fetchMock = vi.fn(async () =>
      jsonResponse(200, { status: "true", message: "Comment has been posted." }),
    );
    vi.stubGlobal("fetch", fetchMock);
    renderAt(
      <CommentForm
        postId={9}
        postType="d"
        viewerId={7}
        label="Your comment"
        submitLabel="POST COMMENT"
      />,
    );
    expect(await screen.findByText("Comment has been posted.")).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/product_add_comment");
    expect(JSON.parse(String(init.body))).toMatchObject({
      user_id: 7,
      post_id: 9,
      post_type: "d",
      comment_id: "",
      comment_text: "Found it at half price!",
    });
    expect(window.sessionStorage.length).toBe(0);
  });

  it("stays in the box with the server's message when the post is refused", async () => {
    renderAt(
      <CommentForm
        postId={9}
        postType="d"
        viewerId={null}
        label="Your comment"
        submitLabel="LEAVE A COMMENT"
      />,
    );
    fireEvent.change(await screen.findByRole("textbox", { name: /Your comment/ }), {
      target: { value: "My first comment" },
    });
    fireEvent.click(screen.getByRole("button", { name: "LEAVE A COMMENT" }));
    await screen.findByRole("heading", { name: /Login page/ });
    cleanup();

    const refusal = "Please confirm your email address before posting.";
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => jsonResponse(403, { status: false, message: refusal })),
    );
    renderAt(
      <CommentForm
        postId={9}
        postType="d"
        viewerId={7}
        label="Your comment"
        submitLabel="POST COMMENT"
      />,
    );
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(screen.getByRole("textbox", { name: /Your comment/ })).toHaveProperty(
      "value",
      "My first comment",
    );
  });

  it("belongs to its post: another post's box leaves it alone", async () => {
    renderAt(
      <CommentForm
        postId={9}
        postType="d"
        viewerId={null}
        label="Your comment"
        submitLabel="LEAVE A COMMENT"
      />,
    );
    fireEvent.change(await screen.findByRole("textbox", { name: /Your comment/ }), {
      target: { value: "For post 9" },
    });
    fireEvent.click(screen.getByRole("button", { name: "LEAVE A COMMENT" }));
    await screen.findByRole("heading", { name: /Login page/ });
    cleanup();

    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    renderAt(
      <CommentForm
        postId={10}
        postType="d"
        viewerId={7}
        label="Your comment"
        submitLabel="POST COMMENT"
      />,
    );
    await screen.findByRole("textbox", { name: /Your comment/ });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.sessionStorage.length).toBe(1);
  });
});

describe("Reply before signing in", () => {
  it("opens that comment's reply box on return", async () => {
    renderAt(
      <CommentThread
        comments={[REPLY_TO]}
        postId={9}
        postType="d"
        viewerId={null}
        now={new Date()}
      />,
    );
    fireEvent.click(await screen.findByRole("button", { name: "Reply" }));
    await screen.findByRole("heading", { name: /Login page/ });
    cleanup();

    renderAt(
      <CommentThread comments={[REPLY_TO]} postId={9} postType="d" viewerId={7} now={new Date()} />,
    );
    const box = await screen.findByRole("textbox", { name: "Reply to Member 5" });
    await waitFor(() => expect(document.activeElement).toBe(box));
  });
});

describe("FOLLOW before signing in", () => {
  it("follows on return, and only on that profile", async () => {
    const Profile = ({ viewerId }: { viewerId: number | null }) => (
      <FollowButton userId={18} name="Andre Williams" isFollow={false} viewerId={viewerId} />
    );
    renderAt(<Profile viewerId={null} />);
    fireEvent.click(await screen.findByRole("button", { name: /^FOLLOW\s*Andre Williams$/ }));
    await screen.findByRole("heading", { name: /Login page/ });
    cleanup();

    const fetchMock = vi.fn(async () =>
      jsonResponse(200, { status: "true", message: "You are now following Andre Williams." }),
    );
    vi.stubGlobal("fetch", fetchMock);
    renderAt(<Profile viewerId={7} />);
    expect(await screen.findByText("You are now following Andre Williams.")).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/profile_follow");
    expect(JSON.parse(String(init.body))).toMatchObject({
      loggedin_user_id: 7,
      user_id: 18,
      status: "Follow",
    });
  });
});
