import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useEffect, useRef, type ReactNode } from "react";
import {
  MdFormatBold,
  MdFormatItalic,
  MdFormatListBulleted,
  MdFormatListNumbered,
  MdFormatQuote,
  MdFormatUnderlined,
  MdLink,
  MdRedo,
  MdUndo,
} from "react-icons/md";

interface TiptapEditorProps {
  id: string;
  labelId: string;
  errorId: string;
  initialHtml: string;
  onChange: (html: string) => void;
  invalid: boolean;
  required?: boolean;
  resetKey?: number;
  /** "page": a page of its own (the console's CMS pages): headings and inline code too. */
  variant?: "post" | "page";
}

function ToolbarButton(props: {
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={props.active ? "rte-button active" : "rte-button"}
      aria-label={props.label}
      title={props.label}
      aria-pressed={props.active === undefined ? undefined : props.active}
      disabled={props.disabled}
      // Keep the selection in the editor while clicking.
      onMouseDown={(event) => event.preventDefault()}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

function editLink(editor: Editor) {
  const previous = (editor.getAttributes("link").href as string | undefined) ?? "";
  const href = window.prompt("Link address (https://…). Leave empty to remove the link.", previous);
  if (href === null) return;
  const chain = editor.chain().focus().extendMarkRange("link");
  if (!href.trim()) chain.unsetLink().run();
  else if (/^(https?:\/\/|mailto:)/i.test(href.trim())) chain.setLink({ href: href.trim() }).run();
  else window.alert("Please enter a link starting with https://, http:// or mailto:.");
}

const INACTIVE = {
  heading2: false,
  heading3: false,
  bold: false,
  italic: false,
  underline: false,
  bulletList: false,
  orderedList: false,
  blockquote: false,
  link: false,
  canUndo: false,
  canRedo: false,
};

type ToolbarState = typeof INACTIVE;

/** Which formats the selection has, for the toolbar's pressed states. */
function useToolbarState(editor: Editor | null): ToolbarState {
  // Before the editor's first transaction the selector may not have run yet: nothing is active.
  return (
    useEditorState({
      editor,
      selector: ({ editor: current }) =>
        current
          ? {
              heading2: current.isActive("heading", { level: 2 }),
              heading3: current.isActive("heading", { level: 3 }),
              bold: current.isActive("bold"),
              italic: current.isActive("italic"),
              underline: current.isActive("underline"),
              bulletList: current.isActive("bulletList"),
              orderedList: current.isActive("orderedList"),
              blockquote: current.isActive("blockquote"),
              link: current.isActive("link"),
              canUndo: current.can().undo(),
              canRedo: current.can().redo(),
            }
          : null,
    }) ?? INACTIVE
  );
}

function Toolbar({
  editor,
  controls,
  headings,
}: {
  editor: Editor;
  controls: string;
  headings: boolean;
}) {
  const state = useToolbarState(editor);
  const run = (command: (chain: ReturnType<Editor["chain"]>) => ReturnType<Editor["chain"]>) =>
    command(editor.chain().focus()).run();
  return (
    <div className="rte-toolbar" role="toolbar" aria-label="Formatting" aria-controls={controls}>
      {headings && (
        <>
          <ToolbarButton
            label="Heading"
            active={state.heading2}
            onClick={() => run((c) => c.toggleHeading({ level: 2 }))}
          >
            <span aria-hidden="true" className="rte-text-button">
              H2
            </span>
          </ToolbarButton>
          <ToolbarButton
            label="Subheading"
            active={state.heading3}
            onClick={() => run((c) => c.toggleHeading({ level: 3 }))}
          >
            <span aria-hidden="true" className="rte-text-button">
              H3
            </span>
          </ToolbarButton>
        </>
      )}
      <ToolbarButton label="Bold" active={state.bold} onClick={() => run((c) => c.toggleBold())}>
        <MdFormatBold aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Italic"
        active={state.italic}
        onClick={() => run((c) => c.toggleItalic())}
      >
        <MdFormatItalic aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Underline"
        active={state.underline}
        onClick={() => run((c) => c.toggleUnderline())}
      >
        <MdFormatUnderlined aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Bulleted list"
        active={state.bulletList}
        onClick={() => run((c) => c.toggleBulletList())}
      >
        <MdFormatListBulleted aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Numbered list"
        active={state.orderedList}
        onClick={() => run((c) => c.toggleOrderedList())}
      >
        <MdFormatListNumbered aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Quote"
        active={state.blockquote}
        onClick={() => run((c) => c.toggleBlockquote())}
      >
        <MdFormatQuote aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Link" active={state.link} onClick={() => editLink(editor)}>
        <MdLink aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Undo" disabled={!state.canUndo} onClick={() => run((c) => c.undo())}>
        <MdUndo aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Redo" disabled={!state.canRedo} onClick={() => run((c) => c.redo())}>
        <MdRedo aria-hidden="true" />
      </ToolbarButton>
    </div>
  );
}

/** The TipTap editor of RichTextEditor, loaded lazily (default export for React.lazy). */
export default function TiptapEditor(props: TiptapEditorProps) {
  const { id, labelId, errorId, initialHtml, onChange, invalid, required, resetKey } = props;
  const page = props.variant === "page";
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        // Posts have no inline code; the owner's pages keep theirs (the privacy policy names cookies).
        ...(page ? {} : { code: false }),
        codeBlock: false,
        link: { openOnClick: false, autolink: true, protocols: ["http", "https", "mailto"] },
      }),
    ],
    content: initialHtml,
    immediatelyRender: false,
    editorProps: {
      attributes: {
        id,
        class: "rte-content",
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        "aria-describedby": errorId,
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? "" : current.getHTML()),
  });

  // aria-invalid/aria-required follow the form's state without rebuilding the editor.
  useEffect(() => {
    if (!editor) return;
    const element = editor.view.dom;
    if (invalid) element.setAttribute("aria-invalid", "true");
    else element.removeAttribute("aria-invalid");
    if (required) element.setAttribute("aria-required", "true");
  }, [editor, invalid, required]);

  const shownResetKey = useRef(resetKey);
  useEffect(() => {
    if (!editor || shownResetKey.current === resetKey) return;
    shownResetKey.current = resetKey;
    editor.commands.clearContent();
  }, [editor, resetKey]);

  if (!editor) return <div className="rte rte-loading" aria-hidden="true" />;

  return (
    <div className={invalid ? "rte invalid" : "rte"}>
      <Toolbar editor={editor} controls={id} headings={page} />
      <EditorContent editor={editor} />
    </div>
  );
}
