import { z } from "zod";
import { pageNumber } from "../catalog/schema.ts";

/** An optional id: a number, a numeric string, or empty (null, "", "0" and absent mean "any"). */
export const optionalId = z.preprocess(
  (value) =>
    value === undefined || value === null || value === "" || value === 0 || value === "0"
      ? undefined
      : value,
  z.coerce
    .number({ error: "must be a number." })
    .int({ error: "must be a whole number." })
    .positive({ error: "must be a positive number." })
    .optional(),
);

/** `POST /api/category_store_filter_home`: `{ store_id, category_id, page }`. */
export const HomeFilterBody = z.object({
  store_id: optionalId,
  category_id: optionalId,
  page: pageNumber,
});

export type HomeFilterInput = z.output<typeof HomeFilterBody>;
