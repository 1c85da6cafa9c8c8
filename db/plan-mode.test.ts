import { describe, expect, it } from "vitest";
import { planModeFor } from "./plan-mode.ts";

/** One frontend message: its type byte, its length (itself included), its body. */
function message(type: string, ...parts: (string | number[])[]): number[] {
  const body = parts.flatMap((part) =>
    typeof part === "string" ? [...Buffer.from(part), 0] : part,
  );
  const length = body.length + 4;
  return [
    type.charCodeAt(0),
    length >>> 24,
    (length >>> 16) & 255,
    (length >>> 8) & 255,
    length & 255,
    ...body,
  ];
}
const bytes = (...messages: number[][]) => Uint8Array.from(messages.flat());
const parse = (name: string) => message("P", name, "select $1::int", [0, 0]);
const bind = (statement: string) => message("B", "", statement, [0, 0, 0, 0, 0, 0]);
const execute = message("E", "", [0, 0, 0, 0]);
const sync = message("S");

describe("the plan mode a batch of the wire protocol wants", () => {
  it("generic plans for a named statement, the default for the unnamed one", () => {
    expect(planModeFor(bytes(parse("p_abc"), bind("p_abc"), execute, sync))).toBe(
      "force_generic_plan",
    );
    expect(planModeFor(bytes(bind("p_abc"), execute, sync))).toBe("force_generic_plan");
    expect(planModeFor(bytes(parse(""), bind(""), execute, sync))).toBe("auto");
  });

  it("leaves the mode alone for what binds nothing", () => {
    expect(planModeFor(bytes(message("Q", "select 1")))).toBeUndefined();
    expect(planModeFor(bytes(sync))).toBeUndefined();
    expect(planModeFor(new Uint8Array(0))).toBeUndefined();
    // A cut message, a length that is no length.
    expect(planModeFor(bytes(parse(""), bind("").slice(0, 6)))).toBeUndefined();
    expect(planModeFor(Uint8Array.from([66, 0, 0, 0, 1, 0, 0]))).toBeUndefined();
  });
});
