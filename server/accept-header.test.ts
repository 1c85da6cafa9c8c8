import { describe, expect, it } from "vitest";
import { acceptedVariantFormat, acceptsToken } from "./accept-header.ts";

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

describe("acceptedVariantFormat", () => {
  const CHROME = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

  it("prefers AVIF when Accept names it, WebP otherwise", () => {
    expect(acceptedVariantFormat(CHROME)).toBe("avif");
    expect(acceptedVariantFormat("image/webp,*/*")).toBe("webp");
    expect(acceptedVariantFormat(" IMAGE/AVIF ; q=0.9")).toBe("avif");
    // Refused outright, only implied by a wildcard, or no header at all.
    expect(acceptedVariantFormat("image/avif;q=0,image/webp")).toBe("webp");
    expect(acceptedVariantFormat("image/avif; q=0.000")).toBe("webp");
    expect(acceptedVariantFormat("image/*,*/*;q=0.8")).toBe("webp");
    expect(acceptedVariantFormat("image/avifx")).toBe("webp");
    expect(acceptedVariantFormat("")).toBe("webp");
    expect(acceptedVariantFormat(undefined)).toBe("webp");
  });
});
