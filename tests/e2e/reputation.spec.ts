import { VIEWPORTS, expect, expectAccessible, test } from "./fixtures.ts";

// Reputation (docs/decisions/0088-reputation.md): the month's top contributors, linked from the
// footer, and a member's badges on their profile, at phone, tablet and desktop widths. The demo
// data is counted by the reputation job's rules when it is seeded (db/demo/seed.ts).

test.describe("top contributors and profile badges", () => {
  for (const viewport of VIEWPORTS) {
    test(`/community/top and a contributor's profile are accessible at ${viewport.width} px`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto("/");
      await page.getByRole("contentinfo").getByRole("link", { name: "Top Contributors" }).click();
      await expect(page).toHaveURL(/\/community\/top$/);
      await expect(
        page.getByRole("heading", { level: 1, name: /^Top Contributors/ }),
      ).toBeVisible();
      const list = page.getByRole("list", { name: /^Top contributors of / });
      await expect(list).toBeVisible();
      const first = list.getByRole("listitem").first();
      await expect(first).toContainText("points this month");
      await expect(first).toContainText(/Level: (Newcomer|Member|Regular|Trusted)/);
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );

      // The first contributor's profile: their level, points and badges with each badge's rule.
      const name = (await first.getByRole("link").first().textContent())!.trim();
      await first.getByRole("link", { name }).click();
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      const reputation = page.getByRole("region", { name: "Reputation" });
      await expect(reputation).toContainText("points");
      await expect(reputation.getByRole("list", { name: "Badges" })).toBeVisible();
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
    });
  }
});
