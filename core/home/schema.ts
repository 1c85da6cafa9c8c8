import { z } from "zod";
import { optionalId, pageNumber } from "../list-query.ts";

/** `POST /api/category_store_filter_home`: `{ store_id, category_id, page }`. */
export const HomeFilterBody = z.object({
  store_id: optionalId,
  category_id: optionalId,
  page: pageNumber,
});

export type HomeFilterInput = z.output<typeof HomeFilterBody>;
