/** The public path of a post: deals under /post, educator discussions under /educator. */
export function postPath(post: { post_type: "d" | "g"; unique_id: string; slug: string }): string {
  return `${post.post_type === "g" ? "/educator" : "/post"}/${post.unique_id}/${post.slug}`;
}
