import { useState } from "react";
import { slugFromTitle } from "../../../core/console/content-fields.ts";
import type { ApiForm } from "../../lib/api-form.ts";

/**
 * The Title and Slug fields of a console form: while the slug has not been typed, it follows the
 * title (the server makes the same one); once typed, or when editing, it stays as it is.
 */
export function useTitleAndSlug<V extends { title: string; slug: string }>(
  form: ApiForm<V>,
  editing: boolean,
) {
  const [slugTyped, setSlugTyped] = useState(editing);
  const title = form.bind("title");
  const slug = form.bind("slug");
  return {
    title: {
      ...title,
      onChange: (value: string) => {
        title.onChange(value);
        if (!slugTyped) form.set("slug", slugFromTitle(value) ?? "");
      },
    },
    slug: {
      ...slug,
      onChange: (value: string) => {
        setSlugTyped(true);
        slug.onChange(value);
      },
    },
  };
}
