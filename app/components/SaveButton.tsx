import { useEffect, useState } from "react";
import { useLoaderData } from "react-router";
import { DELAYS_MS } from "../../core/constants.ts";
import { apiCall } from "../lib/api.ts";
import { usePendingAction, useSignInFirst } from "../lib/pending-action.ts";
import { BOOKMARK_ICON } from "./icons.tsx";

/**
 * Save on the deal page (record 0043): pressed while the deal is among the viewer's saved deals.
 * Its state comes with the page (the loader's `saved`). A visitor is sent to sign in and, back on
 * this page, the deal is saved (app/lib/pending-action.ts).
 */
export function SaveButton({ uniqueId, title }: { uniqueId: string; title: string }) {
  const data = useLoaderData() as
    { saved?: boolean | null; viewer?: { id: number } | null } | undefined;
  const viewerId = data?.viewer?.id ?? null;
  const initial = data?.saved ?? false;
  const signInFirst = useSignInFirst();
  const [saved, setSaved] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => setSaved(initial), [initial, uniqueId]);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), DELAYS_MS.feedback);
    return () => clearTimeout(timer);
  }, [message]);

  usePendingAction(
    "save",
    viewerId !== null,
    () => {
      if (saved) setMessage({ text: "This deal is already saved.", error: false });
      else void send();
    },
    (action) => action.uniqueId === uniqueId,
  );

  async function send() {
    setBusy(true);
    setMessage(null);
    const result = await apiCall("/save_deal_toggle", {
      unique_id: uniqueId,
    });
    if (result.ok && typeof result.data.saved === "boolean") setSaved(result.data.saved);
    setMessage({
      text: result.data.message || "Sorry, that did not work. Please try again.",
      error: !result.ok,
    });
    setBusy(false);
  }

  function toggle() {
    if (viewerId === null) {
      signInFirst({ kind: "save", uniqueId });
      return;
    }
    void send();
  }

  return (
    <div className="save-action">
      <button
        type="button"
        className="btn btn-outline save-button"
        aria-pressed={saved}
        aria-busy={busy || undefined}
        disabled={busy}
        onClick={toggle}
      >
        {BOOKMARK_ICON}
        <span>{saved ? "Saved" : "Save"}</span>
        <span className="visually-hidden"> {title}</span>
      </button>
      <p className="save-status" aria-live="polite">
        {message && (
          <span className={message.error ? "field-error" : "follow-done"}>{message.text}</span>
        )}
      </p>
    </div>
  );
}
