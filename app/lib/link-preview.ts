import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type FocusEvent,
} from "react";
import type { Choice } from "../../core/posts/submissions/presenter.ts";
import { apiCall, type ApiAnswerOf } from "./api.ts";
import type { ApiForm } from "./api-form.ts";

/** What `POST /api/link_preview` answers (core/posts/link-preview/responses.ts). */
export type LinkPreview = ApiAnswerOf<"/link_preview">;

/** The deal form's fields a preview may fill. */
type Fillable = "title" | "price" | "store_id" | "coupon_code" | "deal_image";

type DealValues = Record<Fillable | "link", string>;

export type LinkPreviewState =
  | { phase: "idle" }
  | { phase: "reading"; link: string }
  | { phase: "read"; link: string; preview: LinkPreview; filled: string[]; priceNote: string }
  | { phase: "failed"; link: string; message: string };

/** Names of the filled fields, as the status line lists them. */
const FIELD_NAMES: Record<Fillable, string> = {
  title: "title",
  price: "price",
  store_id: "store",
  coupon_code: "coupon code",
  deal_image: "picture",
};

/** The form's prices are dollars ("Price ($)"); a page's price in another currency is not one. */
const FORM_CURRENCY = "USD";

function isWebLink(value: string): boolean {
  return /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(value.trim());
}

/**
 * Submit Deal's "post from a link" (docs/decisions/0110-post-from-a-link.md): a link pasted into
 * the Deal link field, or typed and then left, is read by `POST /api/link_preview`, and the fields
 * the member has not typed into are filled from the page: title, price, store, coupon code and
 * picture. A field counts as the member's once its value differs from what a preview put there,
 * so a second link refills only the preview's own values. Every filled field stays an ordinary,
 * editable field; a page that cannot be read leaves the form as it was and says why.
 */
export function useLinkPreview<V extends DealValues>(form: ApiForm<V>, stores: Choice[]) {
  const [state, setState] = useState<LinkPreviewState>({ phase: "idle" });
  /** What the last preview put in each field. */
  const placed = useRef<Partial<Record<Fillable, string>>>({});
  /** The link of the newest request: an older answer arriving late is dropped. */
  const asked = useRef("");
  const values = useRef(form.values);
  values.current = form.values;

  // A form emptied after its deal was posted starts afresh: the same link may be read again.
  useEffect(() => {
    asked.current = "";
    placed.current = {};
    setState({ phase: "idle" });
  }, [form.resetKey]);

  const read = useCallback(
    async (raw: string) => {
      const link = raw.trim();
      if (!isWebLink(link) || link === asked.current) return;
      asked.current = link;
      setState({ phase: "reading", link });
      const result = await apiCall("/link_preview", { link });
      if (asked.current !== link) return;
      if (!result.ok) {
        const { errors, message } = result.data;
        const why =
          result.status === 0
            ? "The page could not be read: no connection."
            : errors?.link ||
              (typeof message === "string" && message) ||
              "The page could not be read.";
        setState({ phase: "failed", link, message: why });
        return;
      }
      const preview = result.data;
      const inDollars = preview.currency === null || preview.currency === FORM_CURRENCY;
      const store = preview.store_id !== null && stores.some((s) => s.id === preview.store_id);
      const found: Record<Fillable, string> = {
        title: preview.title ?? "",
        price: preview.price !== null && inDollars ? preview.price.toFixed(2) : "",
        store_id: store ? String(preview.store_id) : "",
        coupon_code: preview.coupon_code ?? "",
        deal_image: preview.image_url ?? "",
      };
      const filled: string[] = [];
      for (const field of Object.keys(found) as Fillable[]) {
        const current = values.current[field];
        const ours = current === "" || current === placed.current[field];
        if (!found[field] || !ours) continue;
        form.set(field as keyof V & string, found[field]);
        placed.current[field] = found[field];
        filled.push(FIELD_NAMES[field]);
      }
      const priceNote =
        preview.price !== null && !inDollars
          ? `The page's price is ${preview.price.toFixed(2)} ${preview.currency}: enter it in US dollars.`
          : "";
      setState({ phase: "read", link, preview, filled, priceNote });
    },
    [form, stores],
  );

  /**
   * A paste into the link field (`name="link"`; the handlers sit on an element around it): the
   * pasted link is read at once.
   */
  const onPaste = useCallback(
    (event: ClipboardEvent<HTMLElement>) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement) || input.name !== "link") return;
      const pasted = event.clipboardData.getData("text/plain").trim();
      // The whole field replaced by a link (an empty field, or all of it selected).
      const replaces =
        input.value === "" ||
        (input.selectionStart === 0 && input.selectionEnd === input.value.length);
      if (replaces && isWebLink(pasted)) void read(pasted);
    },
    [read],
  );

  /** Leaving the link field after typing one reads it (once per link). */
  const onBlur = useCallback(
    (event: FocusEvent<HTMLElement>) => {
      const input = event.target;
      if (input instanceof HTMLInputElement && input.name === "link") void read(input.value);
    },
    [read],
  );

  return { state, onPaste, onBlur };
}
