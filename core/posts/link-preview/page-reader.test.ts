import { describe, expect, it } from "vitest";
import { currencyOf, parsePrice, readProductPage, trimStoreName } from "./page-reader.ts";
import { matchStore } from "./service.ts";

describe("parsePrice", () => {
  it.each([
    [19.99, 19.99],
    ["19.99", 19.99],
    ["$1,299.00", 1299],
    ["1.299,00 €", 1299],
    ["1 249,50 €", 1249.5],
    ["19,99", 19.99],
    ["1,299", 1299],
    ["1.299.000", 1299000],
    ["USD 7", 7],
    ["0", 0],
  ])("%s → %s", (text, price) => {
    expect(parsePrice(text)).toBe(price);
  });

  it.each([["free"], [""], [null], [-3], [Number.NaN], ["99999999999999"]])(
    "%s is no price",
    (text) => {
      expect(parsePrice(text)).toBeNull();
    },
  );
});

describe("currencyOf", () => {
  it.each([
    ["usd", "USD"],
    ["EUR", "EUR"],
    ["£12", "GBP"],
    ["12,00 €", "EUR"],
    ["C$ 5", "CAD"],
    ["$5", "USD"],
    ["dollars", null],
    [undefined, null],
  ])("%s → %s", (value, code) => {
    expect(currencyOf(value)).toBe(code);
  });
});

describe("trimStoreName", () => {
  it("drops the site's name, or a short last part, after a separator", () => {
    expect(trimStoreName("Walnut Lamp | Oak & Ivy", "Oak & Ivy")).toBe("Walnut Lamp");
    expect(trimStoreName("Walnut Lamp – Oak and Ivy", null)).toBe("Walnut Lamp");
    expect(trimStoreName("Amazon.com: Calculator", null)).toBe("Calculator");
  });

  it("keeps a title whose last part is the product's own words", () => {
    expect(trimStoreName("Epson - PowerLite Projector - White", "Best Buy")).toBe(
      "Epson - PowerLite Projector - White",
    );
    expect(trimStoreName("Glue sticks, 30 pack", null)).toBe("Glue sticks, 30 pack");
  });
});

describe("the coupon code in a page's words", () => {
  const page = (body: string) =>
    readProductPage(`<html><body>${body}</body></html>`, "https://shop.example/p").couponCode;

  it("takes an upper-case code right after the words", () => {
    expect(page("<p>Use code <b>SAVE20</b> today</p>")).toBe("SAVE20");
    expect(page("<p>Promo code: “BACKTOSCHOOL”</p>")).toBe("BACKTOSCHOOL");
  });

  it("takes nothing from a sentence that only mentions codes", () => {
    expect(page("<p>Enter your promo code at checkout.</p>")).toBeNull();
    expect(page("<p>Use code at checkout for OFF</p>")).toBeNull();
    expect(page("<p>Shipping code: US</p>")).toBeNull();
  });
});

describe("matchStore", () => {
  const stores = [
    { id: 1, link: "https://www.example.com/" },
    { id: 2, link: "https://deals.example.com" },
    { id: 3, link: "" },
    { id: 4, link: "not a link" },
  ];

  it("matches the host less www., and subdomains, the longest first", () => {
    expect(matchStore(stores, ["https://example.com/p/1"])?.id).toBe(1);
    expect(matchStore(stores, ["https://shop.example.com/p/1"])?.id).toBe(1);
    expect(matchStore(stores, ["https://www.deals.example.com/x"])?.id).toBe(2);
  });

  it("tries each link in turn and matches no other domain", () => {
    expect(matchStore(stores, ["https://notexample.com/", "https://example.com/"])?.id).toBe(1);
    expect(matchStore(stores, ["https://badexample.com/"])).toBeNull();
  });
});
