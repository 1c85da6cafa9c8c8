import { useEffect, useState } from "react";
import { DELAYS_MS } from "../../core/constants.ts";
import { usePendingAction, useSignInFirst, type PendingAction } from "./pending-action.ts";
import { toggleSender, type ToggleAnswer } from "./toggle.ts";

type Pending<K extends PendingAction["kind"]> = Extract<PendingAction, { kind: K }>;

interface ToggleOptions<V, K extends PendingAction["kind"]> {
  /** The state the page's data gives (its loader's), shown until the first press. */
  value: V;
  /** Sends a press: asks the server for `next`, `current` being the state it holds. */
  send: (next: V, current: V) => Promise<ToggleAnswer<V>>;
  same?: (a: V, b: V) => boolean;
  /** Called with the state the server agreed to (a page reloads its data, say). */
  onChange?: (value: V) => void;
  /**
   * A visitor's press is remembered while they sign in, and done when they are back on the page
   * signed in (app/lib/pending-action.ts, record 0035).
   */
  signedIn: boolean;
  kind: K;
  remember: (next: V) => Pending<K>;
  /** The state a remembered action asks of this toggle, or undefined when it is another's. */
  recall: (action: Pending<K>, current: V) => V | undefined;
}

/** What a toggle button shows, and its press. */
export interface Toggle<V> {
  /** The state asked for, until the server answers; then the server's. */
  value: V;
  /** A call is on its way. */
  busy: boolean;
  /** The server's word after a press, or its refusal; it fades after a while. */
  message: { text: string; error: boolean } | null;
  press: (next: V) => void;
}

/**
 * One toggle button (save, follow a store, category or member, like): its state shown at once on a
 * press, one call at a time, rollback and the server's message on a refusal (app/lib/toggle.ts),
 * a message that fades after a while, and a visitor sent to sign in first. A button whose page
 * may show another item in its place is keyed by the item, so that it starts over.
 */
export function useToggle<V, K extends PendingAction["kind"]>(
  options: ToggleOptions<V, K>,
): Toggle<V> {
  const { signedIn, same = Object.is } = options;
  const signInFirst = useSignInFirst();
  // Nothing until the first press: the page's state shows. After it, the press and the answer.
  const [shown, setShown] = useState<{ value: V; busy: boolean }>();
  const [message, setMessage] = useState<Toggle<V>["message"]>(null);
  const [send] = useState(() =>
    toggleSender<V>(
      // The item a button toggles stays its own (callers key it by the item): so does its call.
      options.send,
      (value, busy, answer) => {
        setShown({ value, busy });
        setMessage(answer?.message ? { text: answer.message, error: !answer.ok } : null);
        if (answer?.ok) options.onChange?.(value);
      },
      same,
    ),
  );
  const value = shown ? shown.value : options.value;

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), DELAYS_MS.feedback);
    return () => clearTimeout(timer);
  }, [message]);

  usePendingAction(
    options.kind,
    signedIn,
    (action) => {
      // Asked for what it holds already, it sends nothing: the button shows it so.
      void send(options.recall(action, value)!, value);
    },
    (action) => options.recall(action, value) !== undefined,
  );

  return {
    value,
    busy: !!shown?.busy,
    message,
    // While a call is out, the sender holds the server's state itself.
    press: (next) => (signedIn ? void send(next, value) : signInFirst(options.remember(next))),
  };
}
