import sanitizeHtml from "sanitize-html";
import { isMediaUrl } from "../media/media-path.ts";

/**
 * User HTML (deal descriptions, discussions, comments) through an allow-list: no scripts, event
 * handlers, styles, frames, or javascript:/data: URLs; links open with rel="nofollow ugc noopener".
 *
 * Images are the site's own stored media only (/media/<path>): an image anywhere else would make
 * every viewer's browser ask another address (a tracker logging viewers, /go/ counting clicks).
 * Any other <img> is dropped, when HTML is written and again when it is shown, so HTML stored
 * before this rule cannot act either. Outside images are copied into the site's media when a post
 * is written (core/media/outside-images.ts, docs/decisions/0074-images-in-user-html.md); the
 * writer passes what it copied as `images`.
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
    img: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, src: attribs.src?.trim() ?? "", loading: "lazy" },
    }),
  },
  // Runs after the attributes and URL schemes are filtered: an image whose src is gone or is not
  // the site's media goes entirely.
  exclusiveFilter: (frame) => frame.tag === "img" && !isMediaUrl(frame.attribs.src ?? ""),
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

/**
 * Deal descriptions, discussions and CMS pages. `images` maps an <img> src as written (as
 * imageSources lists it) to the site's stored copy; the src of every other image must already be
 * site media, or the image is dropped.
 */
export function sanitizeRichHtml(
  html: string,
  options: { images?: ReadonlyMap<string, string> } = {},
): string {
  const { images } = options;
  if (!images?.size) return sanitizeHtml(html, RICH).trim();
  return sanitizeHtml(html, {
    ...RICH,
    transformTags: {
      ...RICH.transformTags,
      img: (tagName, attribs) => {
        const src = attribs.src?.trim() ?? "";
        return { tagName, attribs: { ...attribs, src: images.get(src) ?? src, loading: "lazy" } };
      },
    },
  }).trim();
}

/**
 * The src of every <img> in rich HTML as the sanitiser reads it (entities decoded, trimmed, only
 * https: or relative), each once, in the order they appear: what a writer may copy and map.
 */
export function imageSources(html: string): string[] {
  const sources = new Set<string>();
  sanitizeHtml(html, {
    ...RICH,
    exclusiveFilter: (frame) => {
      if (frame.tag === "img" && frame.attribs.src) sources.add(frame.attribs.src);
      return false;
    },
  });
  return [...sources];
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
