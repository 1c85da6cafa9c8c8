import { describe, expect, it } from "vitest";
import { toggleSender, type ToggleAnswer } from "../../app/lib/toggle.ts";

// The one client of every toggle (app/lib/toggle.ts): save, follow and like, on buttons
// (app/lib/use-toggle.ts) and on cards (app/lib/card-votes.ts).

/** A sender whose calls wait for the test to answer them, and what it showed. */
function harness() {
  const calls: { next: boolean; current: boolean; answer: (a: ToggleAnswer<boolean>) => void }[] =
    [];
  const shown: [boolean, boolean, ToggleAnswer<boolean> | undefined][] = [];
  const press = toggleSender<boolean>(
    (next, current) => new Promise((answer) => calls.push({ next, current, answer })),
    (value, busy, answer) => shown.push([value, busy, answer]),
  );
  return { calls, shown, press };
}

describe("toggleSender", () => {
  it("shows a press at once and rolls it back with the server's message when refused", async () => {
    const { calls, shown, press } = harness();
    const done = press(true, false);
    expect(shown).toEqual([[true, true, undefined]]);
    expect(calls).toHaveLength(1);
    const refusal = { ok: false, message: "Too many requests." } as const;
    calls[0]!.answer(refusal);
    await done;
    expect(shown.at(-1)).toEqual([false, false, refusal]);
  });

  it("sends a press made while a call is out once it is answered, if it still asks for a change", async () => {
    const { calls, shown, press } = harness();
    const first = press(true, false);
    void press(false, true);
    // Shown at once, but one call at a time.
    expect(shown.at(-1)).toEqual([false, true, undefined]);
    expect(calls).toHaveLength(1);
    calls[0]!.answer({ ok: true, value: true, message: "Saved." });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ next: false, current: true });
    calls[1]!.answer({ ok: true, value: false, message: "Removed." });
    await first;
    expect(shown.at(-1)).toEqual([false, false, { ok: true, value: false, message: "Removed." }]);

    // Pressed off and on again meanwhile: the state the first call asked for, nothing more to send.
    const again = press(true, false);
    void press(false, true);
    void press(true, false);
    calls[2]!.answer({ ok: true, value: true });
    await again;
    expect(calls).toHaveLength(3);
    expect(shown.at(-1)).toEqual([true, false, { ok: true, value: true }]);
  });
});
