import { Suspense, useEffect, useRef, useState } from "react";
import { ChunkBoundary, lazyChunk } from "../lib/chunks.tsx";
import { textToParagraphs } from "../lib/plain-text.ts";

/** TipTap and ProseMirror are a chunk of their own, fetched only by pages that show an editor. */
const TiptapEditor = lazyChunk("editor", () => import("./TiptapEditor.tsx"));

export interface RichTextEditorProps {
  id: string;
  label: string;
  /** HTML; "" when empty. */
  value: string;
  onChange: (html: string) => void;
  error?: string;
  required?: boolean;
  /** Changing it clears the editor (after a successful submission). */
  resetKey?: number;
  /** "page": the console's CMS pages, with headings and inline code. */
  variant?: "post" | "page";
  /**
   * The field's name in a console form that posts to its page (docs/decisions/0079): the plain
   * textarea, shown before hydration and until TipTap has loaded, holds the HTML itself under this
   * name, so that a post without JavaScript keeps the markup (and an edit starts from it).
   */
  postedName?: string;
  /**
   * The plain textarea's field name in a member's form that posts to its page: it sends the text
   * under it, and the action makes the same paragraphs of it (app/lib/plain-text.ts).
   */
  plainTextName?: string;
  /** The text that form posted, shown again in the plain textarea beside the page's messages. */
  postedText?: string;
}

/**
 * A rich-text field: a labelled plain textarea in the server's HTML and until TipTap has loaded in
 * the browser, then the TipTap editor with a formatting toolbar. Both report HTML to `onChange`.
 */
export function RichTextEditor(props: RichTextEditorProps) {
  const {
    id,
    label,
    value,
    onChange,
    error,
    required,
    resetKey,
    variant,
    postedName,
    plainTextName,
  } = props;
  const [mounted, setMounted] = useState(false);
  const [plainText, setPlainText] = useState(props.postedText ?? "");
  const errorId = `${id}-error`;
  const labelId = `${id}-label`;
  const clearedFor = useRef(resetKey);

  useEffect(() => setMounted(true), []);
  useEffect(() => {
    // A reset (a new key), not the first render, which may show the posted text.
    if (clearedFor.current === resetKey) return;
    clearedFor.current = resetKey;
    setPlainText("");
  }, [resetKey]);

  const fallback = (
    <textarea
      id={id}
      name={postedName ?? plainTextName}
      className="rte-fallback"
      value={postedName ? value : plainText}
      onChange={(event) => {
        if (postedName) return onChange(event.target.value);
        setPlainText(event.target.value);
        onChange(textToParagraphs(event.target.value));
      }}
      aria-invalid={error ? true : undefined}
      aria-describedby={errorId}
      aria-required={required || undefined}
      rows={8}
    />
  );

  return (
    <div className="form-field rte-field">
      <label id={labelId} htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {mounted ? (
        <ChunkBoundary fallback={fallback}>
          <Suspense fallback={fallback}>
            <TiptapEditor
              id={id}
              labelId={labelId}
              errorId={errorId}
              initialHtml={value || textToParagraphs(plainText)}
              onChange={onChange}
              invalid={Boolean(error)}
              required={required}
              resetKey={resetKey}
              variant={variant}
            />
          </Suspense>
        </ChunkBoundary>
      ) : (
        fallback
      )}
      <p id={errorId} className="field-error" aria-live="polite">
        {error}
      </p>
    </div>
  );
}
