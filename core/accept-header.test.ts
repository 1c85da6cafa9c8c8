import { describe, expect, it } from "vitest";
import { acceptsToken } from "./accept-header.ts";

describe("acceptsToken", () => {
  it("is true for a token named with no quality or one above 0, in any case and spacing", () => {
    expect(acceptsToken("gzip, deflate, br, zstd", "br")).toBe(true);
    expect(acceptsToken(" BR ;q=0.5", "br")).toBe(true);
    expect(acceptsToken("gzip;q=1.0", "gzip")).toBe(true);
  });

  it("is false for a token refused (q=0), only matched by a wildcard, or not named", () => {
    expect(acceptsToken("br;q=0, gzip", "br")).toBe(false);
    expect(acceptsToken("br; q=0.000", "br")).toBe(false);
    expect(acceptsToken("*", "br")).toBe(false);
    expect(acceptsToken("brotli", "br")).toBe(false);
    expect(acceptsToken(undefined, "br")).toBe(false);
    expect(acceptsToken("", "gzip")).toBe(false);
  });
});
