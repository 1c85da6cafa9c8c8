import { useLoaderData } from "react-router";
import { sendSave } from "../lib/toggle.ts";
import { useToggle } from "../lib/use-toggle.ts";
import { BOOKMARK_ICON } from "./icons.tsx";
import { ToggleStatus } from "./ToggleStatus.tsx";

/**
 * Save on the deal page (record 0043): pressed while the deal is among the viewer's saved deals.
 * Its state comes with the page (the loader's `saved`). A visitor is sent to sign in and, back on
 * this page, the deal is saved.
 */
export function SaveButton({ uniqueId, title }: { uniqueId: string; title: string }) {
  const data = useLoaderData() as
    { saved?: boolean | null; viewer?: { id: number } | null } | undefined;
  const save = useToggle({
    value: data?.saved ?? false,
    send: () => sendSave(uniqueId),
    signedIn: Boolean(data?.viewer),
    kind: "save",
    remember: () => ({ kind: "save", uniqueId }),
    recall: (action) => (action.uniqueId === uniqueId ? true : undefined),
  });
  return (
    <div className="save-action">
      <button
        type="button"
        className="btn btn-outline save-button"
        aria-pressed={save.value}
        aria-busy={save.busy || undefined}
        onClick={() => save.press(!save.value)}
      >
        {BOOKMARK_ICON}
        <span>{save.value ? "Saved" : "Save"}</span>
        <span className="visually-hidden"> {title}</span>
      </button>
      <ToggleStatus className="save-status" message={save.message} />
    </div>
  );
}
