function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * What a plain textarea holds, as the paragraphs the server expects of a rich-text field: the
 * editor's fallback in the browser (app/components/RichTextEditor.tsx), and the same text posted
 * to the page without JavaScript (app/routes/submit-deal.tsx).
 */
export function textToParagraphs(text: string): string {
  if (!text.trim()) return "";
  // A browser posts a textarea's line breaks as CR LF.
  return text
    .replace(/\r\n?/g, "\n")
    .trim()
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("");
}
