import { describe, expect, it } from "vitest";
import {
  coveringDomains,
  linkHost,
  linkRefusedMessage,
  linksInHtml,
  normaliseDomain,
} from "./blocked-domains.ts";

describe("normaliseDomain", () => {
  it.each([
    ["example.com", "example.com"],
    ["  Example.COM ", "example.com"],
    ["https://www.example.com/deals?x=1", "example.com"],
    ["http://shop.example.co.uk:8080/", "shop.example.co.uk"],
    ["www.example.com", "example.com"],
    ["*.example.com", "example.com"],
    ["example.com.", "example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["https://BÜCHER.de/x", "xn--bcher-kva.de"],
  ])("reads %j as %j", (input, domain) => {
    expect(normaliseDomain(input)).toBe(domain);
  });

  it.each([
    "",
    "   ",
    "localhost",
    "com",
    "exa mple.com",
    "-bad.com",
    "bad-.com",
    "192.168.0.1",
    "[::1]",
    "ftp://example.com",
    "javascript:alert(1)",
    "a".repeat(64) + ".com",
  ])("refuses %j", (input) => {
    expect(normaliseDomain(input)).toBeNull();
  });
});

describe("linkHost and coveringDomains", () => {
  it("finds the host of an http(s) link in ASCII", () => {
    expect(linkHost("https://Deals.Example.com./x")).toBe("deals.example.com");
    expect(linkHost("http://bücher.de")).toBe("xn--bcher-kva.de");
    expect(linkHost("mailto:a@example.com")).toBeNull();
    expect(linkHost("not a link")).toBeNull();
  });

  it("lists the host and its parents of two labels or more", () => {
    expect(coveringDomains("a.b.example.com")).toEqual([
      "a.b.example.com",
      "b.example.com",
      "example.com",
    ]);
    expect(coveringDomains("example.com")).toEqual(["example.com"]);
  });
});

describe("linksInHtml", () => {
  it("reads the href of every link the sanitiser writes", () => {
    expect(
      linksInHtml(
        '<p><a href="https://a.example/x?y=1&amp;z=2" rel="nofollow">a</a> and ' +
          "<a rel='x' href='http://b.example'>b</a><img src=\"https://c.example/i.png\"></p>",
      ),
    ).toEqual(["https://a.example/x?y=1&z=2", "http://b.example"]);
  });
});

it("says which domain is refused", () => {
  expect(linkRefusedMessage("example.com")).toBe(
    "Links to example.com are not allowed on this site.",
  );
});
