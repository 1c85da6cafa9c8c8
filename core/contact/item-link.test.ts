import { describe, expect, it } from "vitest";
import { findItemLink, itemPath } from "./item-link.ts";

const SITE = "https://www.chalkboard.example";

describe("findItemLink: the item of this site a contact message names", () => {
  it("finds a full address of this site, with or without www and scheme", () => {
    expect(
      findItemLink("See https://www.chalkboard.example/post/ab12cd/crayons-deal now", SITE),
    ).toBe("/post/ab12cd/crayons-deal");
    expect(findItemLink("chalkboard.example/profile/42 is a spammer.", SITE)).toBe("/profile/42");
    expect(findItemLink("http://CHALKBOARD.example/store/target?page=2", SITE)).toBe(
      "/store/target",
    );
  });

  it("finds a bare path of an item", () => {
    expect(findItemLink("The deal (/educator/x9y8/how-to-grade) is copied.", SITE)).toBe(
      "/educator/x9y8/how-to-grade",
    );
    expect(findItemLink("/category/books.", SITE)).toBe("/category/books");
  });

  it("ignores other sites, other pages of this site and non-items", () => {
    expect(findItemLink("https://evil.example/post/ab12cd/crayons", SITE)).toBe("");
    expect(findItemLink("https://www.chalkboard.example/newdeals", SITE)).toBe("");
    expect(findItemLink("https://www.chalkboard.example/profile/abc", SITE)).toBe("");
    expect(findItemLink("no link here, just /post text", SITE)).toBe("");
    expect(findItemLink("a/post/ab/cd inside a word", SITE)).toBe("");
  });

  it("answers the first item when there are several, and works on localhost", () => {
    expect(
      findItemLink(
        "http://localhost:3000/newdeals then http://localhost:3000/profile/7 and /profile/8",
        "http://localhost:3000",
      ),
    ).toBe("/profile/7");
  });

  it("keeps only the item part of a path", () => {
    expect(itemPath("/post/abc/slug/extra")).toBe("/post/abc/slug");
    expect(itemPath("/post/abc")).toBe("");
    expect(itemPath("/store/Target")).toBe("");
  });
});
