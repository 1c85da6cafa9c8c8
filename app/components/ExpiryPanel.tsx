import { useState } from "react";
import { Link, useLoaderData, useLocation, useRevalidator } from "react-router";
import type { ExpiryStatus } from "../../core/posts/expiry/service.ts";
import { apiCall } from "../lib/api.ts";
import { messageOf } from "../lib/api-form.ts";
import { loginPath } from "../lib/pending-action.ts";

/**
 * The deal page's "Expired?" (record 0037): how many members say the deal has ended ("2 of 3
 * members say this has expired"), a button for a signed-in member to say so too
 * (`POST /api/mark_expired`), and for its poster or a moderator a Reopen button on an expired deal
 * (`POST /api/reopen_deal`). Its state comes with the page (the loader's `expiry`); a change
 * reloads the page's data, so the Expired banner, the badge and the deal's JSON-LD follow.
 */
export function ExpiryPanel() {
  const data = useLoaderData() as
    { expiry?: ExpiryStatus | null; viewer?: { id: number } | null } | undefined;
  const initial = data?.expiry ?? null;
  const location = useLocation();
  const revalidator = useRevalidator();
  const [answer, setAnswer] = useState<{ for: ExpiryStatus; state: ExpiryStatus } | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  if (!initial) return null;
  // The page's fresh data supersedes an answer given before it.
  const state = answer && answer.for === initial ? answer.state : initial;

  async function send(path: "/mark_expired" | "/reopen_deal") {
    setBusy(true);
    setMessage(null);
    const result = await apiCall(path, { unique_id: state.unique_id });
    setBusy(false);
    if (!result.ok) {
      setMessage({ text: messageOf(result.data), error: true });
      return;
    }
    const { status: _status, message: text, ...next } = result.data;
    setAnswer({ for: initial!, state: next });
    setMessage({ text, error: false });
    if (next.is_expired !== state.is_expired) await revalidator.revalidate();
  }

  const count = `${state.marks} of ${state.threshold} ${state.threshold === 1 ? "member says" : "members say"} this has expired`;
  const signedIn = Boolean(data?.viewer);
  return (
    <section className="expiry-panel" aria-label="Has this deal expired?">
      {!state.is_expired && state.marks > 0 && <p className="expiry-count">{count}</p>}
      {state.marked_by_you && !state.is_expired && <p>You said it has expired.</p>}
      {state.can_mark && (
        <button
          type="button"
          className="btn btn-outline"
          onClick={() => void send("/mark_expired")}
          disabled={busy}
        >
          Expired?
        </button>
      )}
      {state.can_reopen && (
        <button
          type="button"
          className="btn btn-outline"
          onClick={() => void send("/reopen_deal")}
          disabled={busy}
        >
          Reopen deal
        </button>
      )}
      {message && (
        <p
          className={message.error ? "expiry-panel-message error" : "expiry-panel-message"}
          role={message.error ? "alert" : "status"}
        >
          {message.text}
        </p>
      )}
      {!state.is_expired && !signedIn && (
        <SignInToMark path={location.pathname + location.search} />
      )}
    </section>
  );
}

function SignInToMark({ path }: { path: string }) {
  return (
    <p>
      <Link to={loginPath(path)}>Sign in</Link> to say it has expired.
    </p>
  );
}
