import { useState } from "react";
import { useRevalidator } from "react-router";
import { apiCall, type ApiPathFor } from "../../lib/api.ts";
import { messageOf, type ApiAnswer } from "../../lib/api-form.ts";

export interface ConsoleMoveButtonsProps {
  /** The admin call, e.g. "/admin/wishlist/move". */
  call: ApiPathFor<"POST">;
  /** The call's body besides direction, e.g. { id: 3 }. */
  body: Record<string, unknown>;
  /** The row's name, for screen readers: "Move Target up". */
  label: string;
  first: boolean;
  last: boolean;
}

/** Up and down one place in an ordered list; the list reloads in its new order. */
export function ConsoleMoveButtons({ call, body, label, first, last }: ConsoleMoveButtonsProps) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  async function move(direction: "up" | "down") {
    setBusy(true);
    setError("");
    const result = await apiCall(call, { ...body, direction });
    if (!result.ok) {
      setError(messageOf(result.data as ApiAnswer, "That did not work. Please try again."));
    } else {
      await revalidator.revalidate();
    }
    setBusy(false);
  }

  return (
    <span className="console-move">
      <button
        type="button"
        className="btn btn-sm console-btn-plain"
        aria-label={`Move ${label} up`}
        title="Move up"
        disabled={busy || first}
        aria-busy={busy || undefined}
        onClick={() => void move("up")}
      >
        <span aria-hidden="true">↑</span>
      </button>
      <button
        type="button"
        className="btn btn-sm console-btn-plain"
        aria-label={`Move ${label} down`}
        title="Move down"
        disabled={busy || last}
        aria-busy={busy || undefined}
        onClick={() => void move("down")}
      >
        <span aria-hidden="true">↓</span>
      </button>
      {error && (
        <span className="console-action-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
