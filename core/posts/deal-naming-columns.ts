/**
 * What names a deal in a notification or a mail (alerts, the weekly digest): its link's parts, its
 * title, its price and its store. For a query on `posts` left-joined with `stores`.
 */
export const DEAL_NAMING_COLUMNS = [
  "posts.id",
  "posts.unique_id",
  "posts.slug",
  "posts.post_type",
  "posts.title",
  "posts.price",
  "posts.currency",
  "stores.title as store_title",
] as const;
