import type { MetaDescriptor } from "react-router";

/** A console page's title and the console's "noindex" (a page's meta replaces its layout's). */
export function consoleMeta(title: string): MetaDescriptor[] {
  return [{ title: `${title} | Console` }, { name: "robots", content: "noindex" }];
}
