import sanitizeHtml from "sanitize-html";

/**
 * User HTML (deal descriptions, discussions, comments) through an allow-list: no scripts, event
 * handlers, styles, frames, or javascript:/data: URLs; links open with rel="nofollow ugc noopener".
 */
const RICH: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "strike",
    "blockquote",
    "code",
    "pre",
    "ul",
    "ol",
    "li",
    "h2",
    "h3",
    "h4",
    "a",
    "img",
    "hr",
  ],
  // rel/target/loading are added by transformTags below, never taken from the input.
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    img: ["src", "alt", "width", "height", "loading"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: "nofollow ugc noopener", target: "_blank" },
    }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy" } }),
  },
};

const COMMENT: sanitizeHtml.IOptions = {
  ...RICH,
  allowedTags: [
    "p",
    "br",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "blockquote",
    "code",
    "ul",
    "ol",
    "li",
    "a",
  ],
};

export function sanitizeRichHtml(html: string): string {
  return sanitizeHtml(html, RICH).trim();
}

export function sanitizeCommentHtml(html: string): string {
  return sanitizeHtml(html, COMMENT).trim();
}

/** Plain text of (already sanitised) HTML: for search documents, meta descriptions, emptiness checks. */
export function htmlToText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

/** Plain text typed by a user, as safe HTML paragraphs (comments sent without markup). */
export function textToHtml(text: string): string {
  const escape = (s: string) =>
    s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return text
    .trim()
    .split(/\n{2,}/)
    .map((p) => `<p>${escape(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}
