import { expect } from "vitest";

/** A Content-Security-Policy's script-src sources, as written: `'self' 'nonce-…' https://…`. */
export function scriptSources(policy: unknown): string {
  return (/script-src ([^;]*)/.exec(String(policy))?.[1] ?? "").trim();
}

/** The nonce a policy names; fails the test when it names none. */
export function nonceOf(policy: unknown): string {
  const nonce = /'nonce-([^']+)'/.exec(String(policy))?.[1];
  expect(nonce, String(policy)).toBeTruthy();
  return nonce!;
}
