import { useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { pageFromQuery } from "../../core/list-query.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { ForumTable } from "../components/ForumTable.tsx";
import { Pager } from "../components/Pager.tsx";
import { PostNewTopicButton } from "../components/PostNewTopicButton.tsx";
import { notFound } from "../lib/errors.ts";
import { pageMeta } from "../lib/meta.ts";
import { keptListLoader, useKeptList } from "../lib/kept-lists.ts";
import type { Route } from "./+types/educator";
// Breadcrumbs and the pager are styled with the listing pages.
import "../styles/forum.css";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const page = pageFromQuery(new URL(request.url).searchParams.get("page"));
  const listing = await services.listings.educatorPage(page);
  if (page > listing.lastPage) notFound();
  return {
    posts: listing.items,
    page: listing.currentPage,
    lastPage: listing.lastPage,
    total: listing.total,
  };
}

/** Back or Forward to this list shows it as it was left, with no request (app/lib/kept-lists.ts). */
export const clientLoader = (args: Route.ClientLoaderArgs) => keptListLoader(args);

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const page = loaderData?.page ?? 1;
  return pageMeta(matches, {
    title: page > 1 ? `Educators forum – page ${page}` : "Educators forum",
    description:
      "Teachers, librarians and school staff trading classroom ideas, product recommendations and funding tips.",
    path: page > 1 ? `/educator?page=${page}` : "/educator",
  });
};

export default function EducatorForumPage() {
  useKeptList();
  const { posts, page, lastPage, total } = useLoaderData<typeof loader>();
  return (
    <div className="container forum-page">
      <div className="forum-top">
        <Breadcrumbs
          items={[
            { label: "Home", to: "/" },
            { label: "Forums", to: "/forum" },
            { label: "Educators" },
          ]}
        />
        <PostNewTopicButton />
      </div>
      <h1 className="page-title">Educators</h1>
      <ForumTable
        posts={posts}
        caption={`Educators forum posts, page ${page} of ${lastPage} (${total} posts)`}
      />
      <div className="forum-pager">
        <Pager
          page={page}
          lastPage={lastPage}
          hrefFor={(p) => (p === 1 ? "/educator" : `/educator?page=${p}`)}
          label="Educators forum pages"
        />
      </div>
    </div>
  );
}
