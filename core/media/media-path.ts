/**
 * A path below the media root as this site makes them: folders and names of letters, digits,
 * `_`, `-` and dots, never `..`, never absolute, never a backslash or an encoded character.
 * Its own module, free of storage, so that the HTML sanitiser (core/content/sanitize.ts) can tell
 * the site's media from anything else.
 */
const SAFE_PATH = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

export function isMediaPath(relativePath: string): boolean {
  return (
    relativePath.length <= 512 &&
    SAFE_PATH.test(relativePath) &&
    !relativePath.split("/").includes("..")
  );
}

/** Where the site serves its media, and how stored HTML and rows name them: /media/<path>. */
export const MEDIA_URL_PREFIX = "/media/";

/** Whether `url` is a stored media file's own URL, /media/<a media path>. */
export function isMediaUrl(url: string): boolean {
  return url.startsWith(MEDIA_URL_PREFIX) && isMediaPath(url.slice(MEDIA_URL_PREFIX.length));
}

/**
 * An image URL as a page or an answer may show it: the site's stored media, else nothing (the
 * card's placeholder, the initial of an avatar). A picture link or avatar stored before outside
 * images were copied (docs/decisions/0074-images-in-user-html.md) is never shown from its outside
 * address, which would let its owner log every viewer's; the image-link job copies it.
 */
export function siteImage(url: string | null | undefined): string {
  return url && isMediaUrl(url) ? url : "";
}
