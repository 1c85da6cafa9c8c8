import { describe, expect, it } from "vitest";
import { isDisposableEmail } from "./disposable-email.ts";

describe("isDisposableEmail", () => {
  it("finds a listed domain, in any case, with or without a final dot", () => {
    expect(isDisposableEmail("someone@mailinator.com")).toBe(true);
    expect(isDisposableEmail("someone@MailInator.COM")).toBe(true);
    expect(isDisposableEmail("someone@mailinator.com.")).toBe(true);
  });

  it("finds any domain under a listed one", () => {
    expect(isDisposableEmail("someone@x.mailinator.com")).toBe(true);
    expect(isDisposableEmail("someone@a.b.mailinator.com")).toBe(true);
  });

  it("leaves other domains alone, including a listed name inside another domain", () => {
    expect(isDisposableEmail("someone@example.com")).toBe(false);
    expect(isDisposableEmail("someone@gmail.com")).toBe(false);
    expect(isDisposableEmail("someone@mailinator.com.example.com")).toBe(false);
    expect(isDisposableEmail("someone@com")).toBe(false);
    expect(isDisposableEmail("not an address")).toBe(false);
  });
});
