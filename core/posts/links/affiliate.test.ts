import { describe, expect, it } from "vitest";
import {
  cleanLink,
  goTarget,
  hasAffiliateParam,
  isAffiliateLink,
  isValidTemplate,
  webUrl,
} from "./affiliate.ts";

describe("affiliate detection", () => {
  it.each([
    "https://www.amazon.com/dp/B0TEST?tag=chalk-20",
    "https://shop.example/item?aff_id=42",
    "https://shop.example/item?affid=42",
    "https://shop.example/item?affiliate=someone",
    "https://shop.example/item?ref=partner",
    "https://shop.example/item?ref_id=7",
    "https://shop.example/item?irclickid=abc",
    "https://shop.example/item?clickid=abc",
    "https://shop.example/item?awc=1234_5678",
    "https://shop.example/item?ranMID=1&ranEAID=2&ranSiteID=3",
    "https://shop.example/item?cjevent=ff00",
    "https://shop.example/item?sscid=a1",
    "https://shop.example/item?x=1&TAG=upper-case",
  ])("%s carries an affiliate parameter", (link) => {
    expect(hasAffiliateParam(link)).toBe(true);
    expect(isAffiliateLink(link, "")).toBe(true);
  });

  it.each([
    "https://shop.example/item",
    "https://shop.example/item?color=red&size=9",
    "https://shop.example/item?utm_source=news&gclid=1&fbclid=2",
    "https://shop.example/tag/sale",
    "https://shop.example/item#tag=fragment-only",
    "https://shop.example/item?reference=42",
  ])("%s is not an affiliate link by itself", (link) => {
    expect(hasAffiliateParam(link)).toBe(false);
    expect(isAffiliateLink(link, "")).toBe(false);
  });

  it("a store with an affiliate template makes every http(s) link of it an affiliate link", () => {
    expect(isAffiliateLink("https://shop.example/item", "https://partner.example/?u={url}")).toBe(
      true,
    );
    expect(isAffiliateLink("", "https://partner.example/?u={url}")).toBe(false);
    expect(isAffiliateLink("javascript:alert(1)", "https://partner.example/?u={url}")).toBe(false);
  });
});

describe("clean link", () => {
  it("drops tracking and affiliate parameters and keeps the rest", () => {
    expect(
      cleanLink(
        "https://shop.example/item?color=red&utm_source=news&utm_medium=mail&tag=chalk-20&gclid=x&fbclid=y&mc_cid=1&mc_eid=2&aff_sub=3&ref=me&size=9#reviews",
      ),
    ).toBe("https://shop.example/item?color=red&size=9#reviews");
  });

  it("leaves a link without such parameters as it is, and drops an emptied query", () => {
    expect(cleanLink("https://shop.example/item?color=red")).toBe(
      "https://shop.example/item?color=red",
    );
    expect(cleanLink("https://shop.example/item?utm_campaign=x")).toBe("https://shop.example/item");
  });

  it("is empty for anything but an http(s) address", () => {
    expect(cleanLink("")).toBe("");
    expect(cleanLink("javascript:alert(1)")).toBe("");
    expect(cleanLink("data:text/html,hi")).toBe("");
    expect(cleanLink("not a url")).toBe("");
    expect(cleanLink("https://user:pw@shop.example/")).toBe("");
  });
});

describe("go target", () => {
  it("is the stored link when the store has no template", () => {
    expect(goTarget("https://shop.example/item?tag=x", "")).toBe("https://shop.example/item?tag=x");
  });

  it("puts the URL-encoded stored link into the store's template", () => {
    expect(goTarget("https://shop.example/item?a=1&b=2", "https://partner.example/?u={url}")).toBe(
      "https://partner.example/?u=https%3A%2F%2Fshop.example%2Fitem%3Fa%3D1%26b%3D2",
    );
  });

  it("never leads anywhere but an http(s) address", () => {
    expect(goTarget("javascript:alert(1)", "")).toBeNull();
    expect(goTarget("JAVASCRIPT:alert(1)", "https://partner.example/?u={url}")).toBeNull();
    expect(goTarget("data:text/html,<script>1</script>", "")).toBeNull();
    expect(goTarget("", "")).toBeNull();
    expect(goTarget("//evil.example/", "")).toBeNull();
    expect(webUrl("ftp://files.example/")).toBeNull();
  });
});

describe("affiliate template", () => {
  it.each([
    "https://partner.example/?u={url}",
    "http://partner.example/track?id=9&dest={url}",
    "https://partner.example/out/{url}",
  ])("accepts %s", (template) => {
    expect(isValidTemplate(template)).toBe(true);
  });

  it.each([
    "https://partner.example/?u=",
    "partner.example/?u={url}",
    "javascript:{url}",
    "ftp://partner.example/{url}",
    "https://{url}/",
    "https://{url}.example/",
    "https://user:pw@partner.example/?u={url}",
    "https://partner/?u={url}",
    "{url}",
  ])("refuses %s", (template) => {
    expect(isValidTemplate(template)).toBe(false);
  });
});
