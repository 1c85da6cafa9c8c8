import { Link, useLoaderData } from "react-router";
import { requestContext } from "#app-context";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { PostNewTopicButton } from "../components/PostNewTopicButton.tsx";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/forum";
// Breadcrumbs and the pager are styled with the listing pages.
import "../styles/forum.css";

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return { forums: await services.forums.list() };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: "Forums",
    description: loaderData?.forums.length
      ? `Join the conversation: ${loaderData.forums.map((f) => `${f.title} – ${f.detail}`).join(" ")}`
      : undefined,
    path: "/forum",
    extra: [
      {
        tagName: "link",
        rel: "alternate",
        type: "application/rss+xml",
        title: "New deals",
        href: "/rss/newdeals.xml",
      },
    ],
  });

export default function ForumPage() {
  const { forums } = useLoaderData<typeof loader>();
  return (
    <div className="container forum-page">
      <div className="forum-top">
        <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Forums" }]} />
        <PostNewTopicButton />
      </div>
      <h1 className="page-title">Forums</h1>
      {forums.length === 0 ? (
        <p className="no-data">No Data Found</p>
      ) : (
        <ul className="forum-list">
          {forums.map((forum) => (
            <li key={forum.id} className="forum-item card">
              <div className="forum-item-text">
                <h2 id={`forum-${forum.id}`}>{forum.title}</h2>
                <p className="forum-count">
                  {forum.posts === 1 ? "1 post" : `${forum.posts} posts`}
                </p>
                <p className="forum-detail">{forum.detail}</p>
              </div>
              <div className="forum-actions">
                <Link
                  to={forum.path}
                  className="btn btn-primary"
                  aria-describedby={`forum-${forum.id}`}
                >
                  VISIT FORUM
                </Link>
                <PostNewTopicButton label="ADD NEW POST" />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
