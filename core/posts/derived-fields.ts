import { htmlToText, sanitizeRichHtml } from "../content/sanitize.ts";
import { ValidationError } from "../errors.ts";
import { linkKey, slugify } from "./identity.ts";

/**
 * The stored fields of a post that follow from what a person typed: its slug (from the title), its
 * link key (from the link, to find duplicates), a deal's kind (coupon or deal) and its discount.
 * Posting (core/posts/submissions) and the console's edit (core/posts (console-*.ts)) both derive them here, so
 * an edited post reads as if it had been posted that way.
 */

/**
 * A description as stored: sanitised HTML and its plain text. An editor left with markup but no
 * words counts as empty (a ValidationError for `field`). `images` are the stored copies of its
 * outside images (core/media/outside-images.ts); any other image that is not site media goes.
 */
export function cleanDescription(
  html: string,
  field: string,
  message: string,
  images?: ReadonlyMap<string, string>,
) {
  const description = sanitizeRichHtml(html, { images });
  const descriptionText = htmlToText(description);
  if (!descriptionText) throw new ValidationError({ [field]: message });
  return { description, description_text: descriptionText };
}

/** A deal is a coupon when its poster says so or when it carries a code. */
export function dealKind(type: "deal" | "coupon", couponCode: string | null | undefined) {
  return type === "coupon" || couponCode ? ("coupon" as const) : ("deal" as const);
}

/**
 * The discount a deal shows, in whole percent: worked out from the price and the list price when
 * both are known (and the price is not above the list price), otherwise the one typed.
 */
export function dealDiscount(
  price: number | null,
  listPrice: number | null,
  typed: number | null,
): number | null {
  if (price !== null && listPrice !== null && listPrice > 0 && price <= listPrice) {
    return Math.round(((listPrice - price) / listPrice) * 100);
  }
  return typed;
}

export interface DealTypedFields {
  title: string;
  link: string;
  coupon_code: string;
  type: "deal" | "coupon";
  price: number | null;
  list_price: number | null;
  discount: number | null;
}

/** A deal's derived fields, from its typed ones. */
export function derivedDealFields(deal: DealTypedFields) {
  return {
    slug: slugify(deal.title),
    link_key: deal.link ? linkKey(deal.link) : "",
    kind: dealKind(deal.type, deal.coupon_code),
    discount: dealDiscount(deal.price, deal.list_price, deal.discount),
  };
}

/** A discussion's derived field: its slug. */
export function derivedDiscussionFields(discussion: { title: string }) {
  return { slug: slugify(discussion.title) };
}
