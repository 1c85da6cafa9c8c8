import { cleanLink, goTarget, isAffiliateLink } from "./affiliate.ts";

/**
 * The honest-link fields of a deal, beside the spec's `grab_deal_link` (which stays the stored
 * link): where GRAB DEAL goes (`/go/{unique_id}`, "" when there is no link to follow), whether the
 * link is an affiliate link, and the link without tracking and affiliate parameters.
 */
export function presentLinkFields(post: {
  unique_id: string;
  link: string;
  store_affiliate_template: string | null;
}) {
  const template = post.store_affiliate_template ?? "";
  return {
    go_url: goTarget(post.link, template) ? `/go/${encodeURIComponent(post.unique_id)}` : "",
    is_affiliate: isAffiliateLink(post.link, template),
    clean_link: cleanLink(post.link),
  };
}

export type LinkFields = ReturnType<typeof presentLinkFields>;
