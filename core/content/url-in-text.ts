/**
 * A web address in already-escaped text (HTML's text), stopping at whitespace and at escaped
 * quotes or brackets: what the comment linkifier (core/posts/comments/content.ts) turns into a link
 * and what the newcomer link cap (core/moderation/newcomer-links.ts) counts. Apart from the
 * sanitiser so that the browser may import it.
 */
export const URL_IN_TEXT = /\bhttps?:\/\/(?:(?!&(?:lt|gt|quot|#39);)[^\s<>"'])+/gi;
