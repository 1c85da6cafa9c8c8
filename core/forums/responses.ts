import { z } from "zod";
import { postType } from "../cards/responses.ts";
import { TRUE } from "../responses.ts";

export const ForumsResponse = z.strictObject({
  status: TRUE,
  froum_list: z.array(
    z.strictObject({
      id: z.number(),
      title: z.string(),
      slug: z.string(),
      posts: z.number().int(),
      detail: z.string(),
      type: postType,
      path: z.string(),
    }),
  ),
});

// Forums ------------------------------------------------------------------------------------------

const ForumCategoryItem = z.strictObject({
  id: z.number(),
  forum_id: z.number(),
  kind: z.enum(["deal", "discussion"]),
  title: z.string(),
  position: z.number().int(),
  posts: z.number().int().describe("posts of any status in it"),
});

const ForumItem = z.strictObject({
  id: z.number(),
  title: z.string(),
  slug: z.string(),
  detail: z.string(),
  type: z.enum(["d", "g"]).describe("d: deals forum, g: educators' forum"),
  position: z.number().int(),
  categories: z.array(ForumCategoryItem),
});

export const ForumsConsoleResponse = z.strictObject({ status: TRUE, forums: z.array(ForumItem) });

export const ForumSavedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  forum: ForumItem.omit({ categories: true }),
});

export const ForumCategorySavedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  category: ForumCategoryItem,
});
