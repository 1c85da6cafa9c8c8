import { z } from "zod";
import { text } from "../../validation.ts";
import { isValidTemplate, TEMPLATE_MESSAGE } from "./affiliate.ts";

export const AFFILIATE_TEMPLATE_MAX = 500;

/**
 * A store's affiliate template in the console's store form: empty (no affiliate program), or an
 * http(s) address containing {url}, kept as typed (a URL parser would encode the braces).
 */
export const affiliateTemplate = z.preprocess(
  (value) => (value === null ? undefined : value),
  text({ error: TEMPLATE_MESSAGE })
    .trim()
    .max(
      AFFILIATE_TEMPLATE_MAX,
      `Affiliate template must be at most ${AFFILIATE_TEMPLATE_MAX} characters.`,
    )
    .optional()
    .transform((value, ctx) => {
      if (!value) return "";
      if (!isValidTemplate(value)) {
        ctx.addIssue({ code: "custom", message: TEMPLATE_MESSAGE });
        return z.NEVER;
      }
      return value;
    }),
);
