import { sanitizeCommentHtml, textToHtml } from "../../content/sanitize.ts";
import { URL_IN_TEXT } from "../../content/url-in-text.ts";
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

/**
 * A comment is plain text: it is escaped into paragraphs, its http(s) addresses become links, and
 * the result passes the comment allow-list, which adds rel="nofollow ugc noopener". Markup typed
 * into a comment is shown as text, never interpreted.
 */
export function commentTextToHtml(text: string): string {
  const linked = textToHtml(text).replace(URL_IN_TEXT, (match) => {
    const trailing = match.match(TRAILING_PUNCTUATION)?.[0] ?? "";
    const url = match.slice(0, match.length - trailing.length);
    return `<a href="${url}">${url}</a>${trailing}`;
  });
  return sanitizeCommentHtml(linked);
}
