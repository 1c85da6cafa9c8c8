import * as cheerio from "cheerio";

/**
 * What a shop's product page says about its product (docs/decisions/0110-post-from-a-link.md),
 * read by cheerio in the order of trust: schema.org Product / Offer / AggregateOffer in JSON-LD
 * (top-level arrays, `@graph`, nested `offers`, `@type` arrays, a ProductGroup's `hasVariant`),
 * then microdata (`itemscope itemtype=…/Product`), then Open Graph and `product:` meta tags, then
 * `<title>`. Each field comes from the most trusted source that has it; `source` names where the
 * price came from (else the title). Pure: no network, no database.
 */

export type PageSource = "json-ld" | "microdata" | "open-graph" | "title";

export interface PageFacts {
  title: string | null;
  price: number | null;
  /** ISO 4217, upper case. */
  currency: string | null;
  /** Absolute http(s) address of the product's picture, as the page names it. */
  image: string | null;
  couponCode: string | null;
  source: PageSource | null;
}

interface Layer {
  title?: string | null;
  price?: number | null;
  currency?: string | null;
  image?: string | null;
  couponCode?: string | null;
}

const MAX_TITLE = 200;
/** Prices past this are a misread (a product number in a price field), not a price. */
const MAX_PRICE = 9_999_999_999.99;

const SYMBOLS: [RegExp, string][] = [
  [/US\$/, "USD"],
  [/C\$|CA\$/, "CAD"],
  [/A\$|AU\$/, "AUD"],
  [/NZ\$/, "NZD"],
  [/€/, "EUR"],
  [/£/, "GBP"],
  [/₹/, "INR"],
  [/¥|￥/, "JPY"],
  [/₩/, "KRW"],
  [/\$/, "USD"],
];

/** A currency as ISO 4217 (three letters), from a code or a symbol; null when unknown. */
export function currencyOf(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (/^[A-Za-z]{3}$/.test(text)) return text.toUpperCase();
  for (const [symbol, code] of SYMBOLS) if (symbol.test(text)) return code;
  return null;
}

/**
 * A price as shops publish it: 19.99, "19.99", "$1,299.00", "1.299,00 €", "1 299,00", "19,99".
 * With both separators the last one is the decimal point; with only a comma it is one when one or
 * two digits follow it (",99"), else it groups thousands ("1,299"). Null for anything else.
 */
export function parsePrice(value: unknown): number | null {
  if (typeof value === "number") {
    return Number.isFinite(value) && value >= 0 && value <= MAX_PRICE ? round(value) : null;
  }
  if (typeof value !== "string") return null;
  const match = /\d[\d.,'\s\u00a0\u202f]*/.exec(value);
  if (!match) return null;
  let digits = match[0].replace(/[\s\u00a0\u202f']+/g, "").replace(/[.,]+$/, "");
  const lastDot = digits.lastIndexOf(".");
  const lastComma = digits.lastIndexOf(",");
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? "." : ",";
    const group = decimal === "." ? "," : ".";
    digits = digits.split(group).join("").replace(decimal, ".");
  } else if (lastComma >= 0) {
    const commas = digits.split(",").length - 1;
    const after = digits.length - lastComma - 1;
    digits = commas === 1 && after <= 2 ? digits.replace(",", ".") : digits.split(",").join("");
  } else if (digits.split(".").length > 2) {
    // "1.299.000": dots group thousands.
    digits = digits.split(".").join("");
  }
  const price = Number(digits);
  return Number.isFinite(price) && price <= MAX_PRICE ? round(price) : null;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function cleanText(value: unknown): string | null {
  if (typeof value !== "string") return null;
  // JSON-LD strings are sometimes written HTML-escaped ("Tom &amp; Jerry").
  const text = value.includes("&") ? cheerio.load(value, null, false).text() : value;
  const single = text.replace(/\s+/g, " ").trim();
  return single ? single.slice(0, MAX_TITLE).trim() : null;
}

function absoluteUrl(value: unknown, base: string): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

// ---- JSON-LD --------------------------------------------------------------------------------

type JsonNode = Record<string, unknown>;

function isObject(value: unknown): value is JsonNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typesOf(node: JsonNode): string[] {
  const type = node["@type"];
  const list = Array.isArray(type) ? type : [type];
  // "http://schema.org/Product" and "schema:Product" name the same type.
  return list
    .filter((t): t is string => typeof t === "string")
    .map((t) => t.replace(/^.*[/:]/, ""));
}

const PRODUCT_TYPES = new Set(["Product", "ProductGroup", "IndividualProduct", "ProductModel"]);
const OFFER_TYPES = new Set(["Offer", "AggregateOffer"]);

/** Every object of a JSON-LD document, depth first: arrays, `@graph`, nested values. */
function* walk(value: unknown, depth = 0): Generator<JsonNode> {
  if (depth > 12) return;
  if (Array.isArray(value)) {
    for (const item of value) yield* walk(item, depth + 1);
  } else if (isObject(value)) {
    yield value;
    for (const [key, child] of Object.entries(value)) {
      if (key !== "@context") yield* walk(child, depth + 1);
    }
  }
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

function imageOf(value: unknown, base: string): string | null {
  for (const item of asList(value)) {
    if (typeof item === "string") {
      const url = absoluteUrl(item, base);
      if (url) return url;
    } else if (isObject(item)) {
      const url = absoluteUrl(item.contentUrl ?? item.url, base);
      if (url) return url;
    }
  }
  return null;
}

interface OfferFacts {
  price: number | null;
  currency: string | null;
  couponCode: string | null;
}

/** The first priced offer of `offers`: an Offer, an AggregateOffer (its lowPrice) or a list. */
function offerOf(offers: unknown, depth = 0): OfferFacts | null {
  if (depth > 4) return null;
  for (const offer of asList(offers)) {
    if (!isObject(offer)) continue;
    const spec = asList(offer.priceSpecification).find(isObject);
    const currency =
      currencyOf(offer.priceCurrency) ?? (spec ? currencyOf(spec.priceCurrency) : null);
    const price =
      parsePrice(offer.price) ??
      parsePrice(offer.lowPrice) ??
      (spec ? (parsePrice(spec.price) ?? parsePrice(spec.minPrice)) : null);
    // schema.org has no coupon property on Offer; `discountCode` is its name for a code that
    // redeems a discount (on Order), which some shops put on the offer.
    const couponCode = codeOf(offer.discountCode ?? offer.couponCode);
    if (price !== null) {
      return { price, currency: currency ?? currencyOf(offer.currency), couponCode };
    }
    const nested = offerOf(offer.offers, depth + 1);
    if (nested) return { ...nested, currency: nested.currency ?? currency };
  }
  return null;
}

function productFacts(node: JsonNode, base: string): Layer {
  let offer = offerOf(node.offers);
  let image = imageOf(node.image, base);
  if (!offer && node.hasVariant) {
    // A ProductGroup's price and picture are its variants'.
    for (const variant of asList(node.hasVariant)) {
      if (!isObject(variant)) continue;
      offer = offerOf(variant.offers);
      image ??= imageOf(variant.image, base);
      if (offer) break;
    }
  }
  return {
    title: cleanText(node.name),
    image,
    price: offer?.price ?? null,
    currency: offer?.currency ?? null,
    couponCode: offer?.couponCode ?? null,
  };
}

/** A JSON-LD block as JSON; a block with a stray trailing comma or raw newline in a string is forgiven. */
function parseJsonLd(text: string): unknown {
  const trimmed = text.trim().replace(/^<!--|-->$/g, "");
  try {
    return JSON.parse(trimmed);
  } catch {
    try {
      return JSON.parse(trimmed.replace(/,\s*([}\]])/g, "$1").replace(/[\r\n\t]+/g, " "));
    } catch {
      return undefined;
    }
  }
}

function fromJsonLd($: cheerio.CheerioAPI, base: string): Layer | null {
  let best: Layer | null = null;
  let offerOnly: Layer | null = null;
  for (const script of $('script[type="application/ld+json"]').toArray()) {
    for (const node of walk(parseJsonLd($(script).text()))) {
      const types = typesOf(node);
      if (types.some((t) => PRODUCT_TYPES.has(t))) {
        const facts = productFacts(node, base);
        // The first product with a price wins; else the first with a name.
        if (!best || (best.price == null && facts.price != null)) best = facts;
        if (best.price != null) return best;
      } else if (!offerOnly && types.some((t) => OFFER_TYPES.has(t))) {
        // An Offer on its own, its product as `itemOffered` (or not named at all).
        const offer = offerOf(node);
        if (offer) {
          const item = isObject(node.itemOffered) ? productFacts(node.itemOffered, base) : {};
          offerOnly = { ...item, ...offer };
        }
      }
    }
  }
  // A product without a price gives way to an Offer that has one (its product as itemOffered).
  return offerOnly ?? best;
}

// ---- Microdata ------------------------------------------------------------------------------

/** An itemprop's value as microdata defines it: content, else src/href, else its text. */
function itemValue(node: cheerio.Cheerio<never>, base: string): string | null {
  const content = node.attr("content");
  if (content !== undefined) return content;
  const tag = String(node.prop("tagName") ?? "").toLowerCase();
  if (tag === "img" || tag === "source") return absoluteUrl(node.attr("src"), base);
  if (tag === "link" || tag === "a") return absoluteUrl(node.attr("href"), base);
  if (tag === "meta") return null;
  return node.text();
}

function fromMicrodata($: cheerio.CheerioAPI, base: string): Layer | null {
  const scope = $("[itemscope][itemtype]")
    .filter((_, element) =>
      /schema\.org\/(Product|IndividualProduct)\b/i.test($(element).attr("itemtype") ?? ""),
    )
    .first();
  if (!scope.length) return null;
  const first = (prop: string): string | null => {
    for (const element of scope.find(`[itemprop~="${prop}"]`).toArray()) {
      const value = itemValue($(element) as cheerio.Cheerio<never>, base);
      if (value && value.trim()) return value;
    }
    return null;
  };
  // The product's own name, not a name inside its brand or review.
  const ownName = scope
    .find('[itemprop~="name"]')
    .filter((_, element) => $(element).parent().closest("[itemscope]").is(scope))
    .first();
  const priceText = first("price") ?? first("lowPrice");
  return {
    title: cleanText(ownName.length ? itemValue(ownName as cheerio.Cheerio<never>, base) : null),
    price: parsePrice(priceText),
    // A price printed with its symbol ("$15.99", "1.299,00 €") names its currency.
    currency: currencyOf(first("priceCurrency")) ?? currencyOf(priceText),
    image: absoluteUrl(first("image"), base),
  };
}

// ---- Open Graph and product: meta tags ------------------------------------------------------

function meta($: cheerio.CheerioAPI, ...names: string[]): string | null {
  for (const name of names) {
    const value = $(`meta[property="${name}"], meta[name="${name}"]`).first().attr("content");
    if (value && value.trim()) return value.trim();
  }
  return null;
}

function fromOpenGraph($: cheerio.CheerioAPI, base: string): Layer {
  const amount = meta($, "product:price:amount", "og:price:amount", "product:sale_price:amount");
  return {
    title: trimStoreName(cleanText(meta($, "og:title", "twitter:title")), siteName($)),
    price: parsePrice(amount),
    currency:
      currencyOf(
        meta($, "product:price:currency", "og:price:currency", "product:sale_price:currency"),
      ) ?? currencyOf(amount),
    image: absoluteUrl(
      meta($, "og:image:secure_url", "og:image", "og:image:url", "twitter:image"),
      base,
    ),
  };
}

function siteName($: cheerio.CheerioAPI): string | null {
  return cleanText(meta($, "og:site_name", "application-name"));
}

/**
 * "Walnut desk lamp | Oak & Ivy" → "Walnut desk lamp": a last part after " | ", " - ", " – " or
 * " — " that is the site's name, or short (at most 3 words) when the page names no site. Amazon's
 * "Amazon.com: " prefix goes too.
 */
export function trimStoreName(title: string | null, site: string | null): string | null {
  if (!title) return null;
  let text = title.replace(/^Amazon\.[a-z.]+\s*:\s*/i, "");
  const parts = text.split(/\s+[|–—-]\s+/);
  if (parts.length > 1) {
    const last = parts[parts.length - 1]!.trim();
    const isSite = site
      ? last.toLowerCase() === site.toLowerCase()
      : last.split(/\s+/).length <= 3 && last.length <= 30;
    if (isSite) text = text.slice(0, text.length - last.length).replace(/\s+[|–—-]\s*$/, "");
  }
  return text.trim() || null;
}

// ---- Coupon code ----------------------------------------------------------------------------

/**
 * A code as shops print them: 3 to 20 upper-case letters, digits, dashes or underscores with at
 * least one letter ("SAVE20", "TEACHER-10"); never a word in lower case.
 */
function codeOf(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const code = value.trim();
  return /^(?=.*[A-Z])[A-Za-z0-9_-]{3,20}$/.test(code) && code === code.toUpperCase() ? code : null;
}

/**
 * A code the page announces in words: "use code SAVE20", "promo code: TEACH15", "coupon code
 * “BACK2SCHOOL”". Strict: the code is upper case with a digit or at least 4 letters, and comes
 * straight after the words, so a sentence that merely mentions codes gives nothing.
 */
function codeInText($: cheerio.CheerioAPI): string | null {
  const body = $("body").clone();
  body.find("script, style, noscript, template").remove();
  const text = body.text().replace(/\s+/g, " ");
  // The words in any case; the code itself is checked for upper case (codeOf).
  const pattern =
    /\b(?:use|with|enter|apply)?\s*(?:the\s+)?(?:promo|coupon|discount|voucher)?\s*code\s*:?\s*["“'‘]?([A-Z0-9][A-Z0-9_-]{2,19})\b["”'’]?/gi;
  for (const match of text.matchAll(pattern)) {
    const lead = match[0].slice(0, match[0].lastIndexOf(match[1]!)).toLowerCase();
    if (!/(use|with|enter|apply|promo|coupon|discount|voucher)/.test(lead)) continue;
    const code = codeOf(match[1]!);
    if (code && (/\d/.test(code) || code.length >= 4)) return code;
  }
  return null;
}

// ---- Together -------------------------------------------------------------------------------

/** Reads a product page's HTML; `pageUrl` is where it came from (relative links resolve there). */
export function readProductPage(html: string | cheerio.CheerioAPI, pageUrl: string): PageFacts {
  const $ = typeof html === "string" ? cheerio.load(html) : html;
  const layers: [PageSource, Layer | null][] = [
    ["json-ld", fromJsonLd($, pageUrl)],
    ["microdata", fromMicrodata($, pageUrl)],
    ["open-graph", fromOpenGraph($, pageUrl)],
    [
      "title",
      { title: trimStoreName(cleanText($("head > title, title").first().text()), siteName($)) },
    ],
  ];
  const facts: PageFacts = {
    title: null,
    price: null,
    currency: null,
    image: null,
    couponCode: null,
    source: null,
  };
  let priceSource: PageSource | null = null;
  let titleSource: PageSource | null = null;
  for (const [source, layer] of layers) {
    if (!layer) continue;
    if (facts.title === null && layer.title) {
      facts.title = layer.title;
      titleSource = source;
    }
    if (facts.price === null && layer.price != null) {
      facts.price = layer.price;
      priceSource = source;
      // A currency goes with its own price; another layer's may not be the same offer's.
      facts.currency = layer.currency ?? null;
    }
    facts.image ??= layer.image ?? null;
    facts.couponCode ??= layer.couponCode ?? null;
  }
  if (facts.price !== null && facts.currency === null) {
    // The price's layer named no currency: the most trusted layer that names one.
    facts.currency = layers.map(([, l]) => l?.currency).find((c) => c) ?? null;
  }
  facts.couponCode ??= codeInText($);
  facts.source = priceSource ?? titleSource;
  return facts;
}
