-- migrate: no-transaction
-- Posts whose picture is still an outside address (stored before pictures were copied into the
-- site's media, docs/decisions/0074-images-in-user-html.md). The media.copy-image-links job looks
-- for them every ten minutes (core/media/image-link-job.ts); without this index each look walks
-- every post, a million at a large site, to find none. The index holds only the few it looks for.
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_outside_picture_idx ON posts (id)
  WHERE image_url <> '' AND image_url NOT LIKE '/media/%';
