import { useLoaderData } from "react-router";
import { PostDetail } from "../components/PostDetail.tsx";
import { postPageMeta } from "../lib/post-page.ts";
import { loadPostPage } from "../lib/post-page.server.ts";
import { pageFormsAction } from "../lib/post-forms.server.ts";
import type { Route } from "./+types/educator-post";

export function loader(args: Route.LoaderArgs) {
  return loadPostPage(args, "educator");
}

/** The comment, reply, like and report forms posted to the page (app/lib/post-forms.server.ts). */
export function action(args: Route.ActionArgs) {
  return pageFormsAction(args, ["comment", "comment_like", "report"]);
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  postPageMeta(matches, loaderData, "educator");

export default function EducatorPostPage() {
  const { details, crumbs, canonicalUrl, viewer, now } = useLoaderData<typeof loader>();
  return (
    <PostDetail
      details={details}
      variant="educator"
      crumbs={crumbs}
      canonicalUrl={canonicalUrl}
      viewer={viewer}
      now={now}
    />
  );
}
