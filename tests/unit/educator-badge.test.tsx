// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { PresentedComment } from "../../core/posts/presenter.ts";
import { CommentThread } from "../../app/components/CommentThread.tsx";
import { EducatorBadge } from "../../app/components/EducatorBadge.tsx";

const NOW = new Date("2026-06-15T12:00:00Z");

function comment(id: number, verified: boolean): PresentedComment {
  return {
    id,
    user_id: 100 + id,
    user_name: `Member ${id}`,
    user_image: "",
    user_verified_educator: verified,
    user_level: "",
    message: `<p>Comment ${id}</p>`,
    created_at: NOW.toISOString(),
    comment_id: "",
    product_id: 9,
    product_type: "d",
    is_deleted: false,
    likes_count: 0,
    comments_replies: [],
  };
}

afterEach(cleanup);

describe("the Verified educator badge", () => {
  it("says its name in words, and shows nothing for other members", () => {
    const { container, rerender } = render(<EducatorBadge verified />);
    expect(screen.getByText("Verified educator")).toBeTruthy();
    expect(container.querySelector("svg")!.getAttribute("aria-hidden")).toBe("true");
    rerender(<EducatorBadge verified={false} />);
    expect(screen.queryByText("Verified educator")).toBeNull();
  });

  it("follows the name of a verified educator's comment only", async () => {
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: () => (
          <CommentThread
            comments={[comment(1, true), comment(2, false)]}
            postId={9}
            postType="d"
            viewerId={null}
            now={NOW}
          />
        ),
      },
    ]);
    render(<Stub initialEntries={["/"]} />);
    const teacher = (await screen.findByText("Comment 1")).closest("li")!;
    expect(teacher.querySelector(".comment-author")!.textContent).toContain("Verified educator");
    const other = screen.getByText("Comment 2").closest("li")!;
    expect(other.textContent).not.toContain("Verified educator");
  });
});
