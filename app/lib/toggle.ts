import { apiCall, type ApiAnswerOf, type ApiPathFor } from "./api.ts";

/** What a toggle's call answers: the state the server now holds, or why it refused. */
export type ToggleAnswer<V> =
  { ok: true; value: V; message?: string } | { ok: false; message: string };

/**
 * The one way a toggle (save, follow, like) talks to the server, kept outside React so that a grid
 * of cards keeps one per card in its store (app/lib/card-votes.ts) and a button one in its hook
 * (app/lib/use-toggle.ts). A press is shown at once (`show` with busy). One call is on its way at
 * a time: a press made meanwhile is shown too, and sent once that call is answered, if it still
 * asks for another state than the server holds. Then `show` has the server's state with its
 * answer; after a refusal, that is the state before the refused press.
 */
export function toggleSender<V>(
  send: (next: V, current: V) => Promise<ToggleAnswer<V>>,
  show: (value: V, busy: boolean, answer?: ToggleAnswer<V>) => void,
  same: (a: V, b: V) => boolean = Object.is,
): (next: V, current: V) => Promise<void> {
  let sending = false;
  let wanted: V;
  return async (next, current) => {
    wanted = next;
    show(next, true);
    if (sending) return;
    sending = true;
    let answer;
    for (let target = next; !same(target, current); target = wanted) {
      answer = await send(target, current);
      if (!answer.ok) break;
      current = answer.value;
      // No press since this call: the server's answer stands.
      if (wanted === target) break;
    }
    sending = false;
    show(current, false, answer);
  };
}

/**
 * Sends one press of a save or follow (`save_deal_toggle`, `follow_toggle`, `profile_follow`;
 * record 0043) and reads the state the server then holds from its answer.
 */
export async function toggleCall<P extends ApiPathFor<"POST">, V>(
  path: P,
  body: Record<string, unknown>,
  valueOf: (answer: ApiAnswerOf<P>) => V,
): Promise<ToggleAnswer<V>> {
  const result = await apiCall(path, body);
  const { message } = result.data as { message?: string };
  return result.ok
    ? { ok: true, value: valueOf(result.data), message }
    : { ok: false, message: message || "Sorry, that did not work. Please try again." };
}

/** A deal's Save, on its page and on its cards: the server answers whether it is now saved. */
export const sendSave = (uniqueId: string) =>
  toggleCall("/save_deal_toggle", { unique_id: uniqueId }, (answer) => answer.saved);
