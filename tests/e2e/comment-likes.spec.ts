import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  hydrated,
  postDealThroughApi,
  signInThroughApi,
  test,
  xsrfToken,
} from "./fixtures.ts";

/**
 * Likes on comments (record 0092): on a deal page a member likes another member's comment by
 * keyboard, sees it pressed with its count at once and after a reload, and takes it back; a
 * visitor's Like sends them to sign in and, back on the page, the comment is liked.
 */

// The demo data's administrator (db/demo/people.ts), with the demo password: poster and commenter.
const ADMIN = { email: "admin@example.com", password: "Chalkboard#2026" };
const PASSWORD = "Chalk#Board42";

/** A fresh deal with one comment by the administrator, whose page no other journey uses. */
async function dealWithComment(page: Page, label: string) {
  const adminId = await signInThroughApi(page, ADMIN);
  const tag = randomBytes(3).toString("hex");
  const deal = await postDealThroughApi(page, adminId, { title: `Comment likes ${label} ${tag}` });
  const headers = { "x-xsrf-token": await xsrfToken(page) };
  const details = await page.request.post("/api/product_details", {
    headers,
    data: { unique_id: deal.unique_id },
  });
  expect(details.status(), await details.text()).toBe(200);
  const posted = await page.request.post("/api/product_add_comment", {
    headers,
    data: {
      user_id: adminId,
      post_id: (await details.json()).response.product_details.id,
      post_type: "d",
      comment_id: "",
      comment_text: `A comment worth liking (${tag})`,
    },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  await page.context().clearCookies();
  return deal;
}

/** A new member; signed in on the page's browser context unless `signIn` is false. */
async function newMember(page: Page, label: string, signIn = true) {
  const email = `e2e-clike-${label}-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name: "Comment Fan", email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  if (signIn) await signInThroughApi(page, { email, password: PASSWORD });
  return email;
}

/** The administrator's comment on the deal page. */
const theComment = (page: Page) =>
  page.locator("#main .comment").filter({ hasText: "A comment worth liking" });
const likeButton = (page: Page) =>
  theComment(page).getByRole("button", { name: /^Like the comment by/ });

test("a member likes a comment by keyboard, sees its count, and takes the like back", async ({
  page,
}) => {
  const deal = await dealWithComment(page, "keyboard");
  await newMember(page, "keyboard");
  await page.goto(deal.url);
  const like = likeButton(page);
  await hydrated(like);
  const comment = theComment(page);
  await expect(like).toHaveAttribute("aria-pressed", "false");
  await expect(comment.locator(".comment-like-count")).toHaveCount(0);

  await like.focus();
  await page.keyboard.press("Enter");
  await expect(like).toHaveAttribute("aria-pressed", "true");
  await expect(comment.locator(".comment-like-count")).toHaveText("1 like");
  await expect(comment.getByText("You liked this comment.")).toBeVisible();
  await expect(like).not.toHaveAttribute("aria-busy", "true");
  await expectAccessible(page);

  // Kept: the page's data says so after a reload.
  await page.reload();
  await hydrated(likeButton(page));
  await expect(likeButton(page)).toHaveAttribute("aria-pressed", "true");
  await expect(comment.locator(".comment-like-count")).toHaveText("1 like");

  await likeButton(page).focus();
  await page.keyboard.press("Space");
  await expect(likeButton(page)).toHaveAttribute("aria-pressed", "false");
  await expect(comment.locator(".comment-like-count")).toHaveCount(0);
  await page.reload();
  await expect(likeButton(page)).toHaveAttribute("aria-pressed", "false");
});

test("a visitor's Like sends them to sign in, and the comment is liked on return", async ({
  page,
}) => {
  const deal = await dealWithComment(page, "visitor");
  const email = await newMember(page, "visitor", false);
  await page.goto(deal.url);
  const like = likeButton(page);
  await hydrated(like);
  await like.click();
  await expect(page).toHaveURL(/\/login\?next=%2Fpost%2F/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.locator("#main").getByRole("button", { name: "Login" }).click();

  await expect(page).toHaveURL(new RegExp(`${new URL(deal.url, "http://x").pathname}$`));
  await expect(likeButton(page)).toHaveAttribute("aria-pressed", "true");
  const comment = theComment(page);
  await expect(comment.locator(".comment-like-count")).toHaveText("1 like");
  await expectAccessible(page);
});
