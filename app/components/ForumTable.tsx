import { Link, useNavigate } from "react-router";
import type { EducatorPost } from "../../core/listings/presenter.ts";
import { formatDate } from "../lib/format.ts";
import { useMediaUrl } from "../lib/media-url.tsx";

/** The Educators forum table: Posts, Rating, Views, By; a row opens its post. */
export function ForumTable({ posts, caption }: { posts: EducatorPost[]; caption: string }) {
  const mediaUrl = useMediaUrl();
  const navigate = useNavigate();
  if (posts.length === 0) return <p className="no-data">No Data Found</p>;
  return (
    <table className="forum-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Posts</th>
          <th scope="col" className="num">
            Rating
          </th>
          <th scope="col" className="num">
            Views
          </th>
          <th scope="col">By</th>
        </tr>
      </thead>
      <tbody>
        {posts.map((post) => {
          const href = `/educator/${post.unique_id}/${post.slug}`;
          return (
            // The title is the row's link for keyboards and screen readers; a click anywhere on the
            // row follows it too.
            <tr key={post.unique_id} onClick={() => navigate(href)}>
              <td>
                <div className="forum-post">
                  {post.image_url && (
                    <img
                      src={mediaUrl(post.image_url)}
                      alt=""
                      width={64}
                      height={48}
                      loading="lazy"
                    />
                  )}
                  <div>
                    <Link
                      to={href}
                      className="forum-post-title"
                      onClick={(e) => e.stopPropagation()}
                    >
                      {post.title}
                    </Link>
                    <p className="forum-post-meta">
                      {post.is_featured && (
                        <span className="featured-badge">{post.is_featured}</span>
                      )}
                      <time dateTime={post.created_at}>{formatDate(post.created_at)}</time>
                      <span>{post.comments === 1 ? "1 comment" : `${post.comments} comments`}</span>
                    </p>
                  </div>
                </div>
              </td>
              <td className="num" data-label="Rating">
                {post.rating}
              </td>
              <td className="num" data-label="Views">
                {post.views}
              </td>
              <td data-label="By">{post.user_name || "Former member"}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
