import { describe, expect, it } from "vitest";
import {
  imageVariants,
  negotiatedVariantTarget,
  parseVariantPath,
  sizedName,
  variantFiles,
  variantWidths,
} from "./variants.ts";

describe("variantWidths", () => {
  it("makes 320, 640 and 960 of a wide image, and never upscales a narrow one", () => {
    expect(variantWidths(1600)).toEqual([320, 640, 960]);
    expect(variantWidths(960)).toEqual([320, 640, 960]);
    expect(variantWidths(800)).toEqual([320, 640, 800]);
    expect(variantWidths(500)).toEqual([320, 500]);
    expect(variantWidths(320)).toEqual([320]);
    expect(variantWidths(64)).toEqual([64]);
  });
});

describe("imageVariants", () => {
  it("derives srcset per format and the intrinsic size from a sized /media/ name", () => {
    expect(imageVariants("/media/deals/Ab-c_9.1600x1200.webp")).toEqual({
      width: 1600,
      height: 1200,
      srcset: {
        avif:
          "/media/deals/Ab-c_9.1600x1200.w320.avif 320w, " +
          "/media/deals/Ab-c_9.1600x1200.w640.avif 640w, " +
          "/media/deals/Ab-c_9.1600x1200.w960.avif 960w",
        webp:
          "/media/deals/Ab-c_9.1600x1200.w320.webp 320w, " +
          "/media/deals/Ab-c_9.1600x1200.w640.webp 640w, " +
          "/media/deals/Ab-c_9.1600x1200.w960.webp 960w",
        negotiated:
          "/media/deals/Ab-c_9.1600x1200.w320 320w, " +
          "/media/deals/Ab-c_9.1600x1200.w640 640w, " +
          "/media/deals/Ab-c_9.1600x1200.w960 960w",
      },
    });
  });

  it("lists only the widths that were made for a smaller image", () => {
    expect(imageVariants("/media/demo/deal-crayons-amazon.800x600.webp")?.srcset.webp).toBe(
      "/media/demo/deal-crayons-amazon.800x600.w320.webp 320w, " +
        "/media/demo/deal-crayons-amazon.800x600.w640.webp 640w, " +
        "/media/demo/deal-crayons-amazon.800x600.w800.webp 800w",
    );
  });

  it("has nothing for older uploads, other sites' images and odd names", () => {
    expect(imageVariants("/media/deals/AbC123.webp")).toBeNull();
    expect(imageVariants("https://images.example.com/a.800x600.webp")).toBeNull();
    expect(imageVariants("/media/deals/../x.800x600.webp")).toBeNull();
    expect(imageVariants("/media/deals/a.0x600.webp")).toBeNull();
    expect(imageVariants("/media/deals/a.800x600.svg")).toBeNull();
    expect(imageVariants("")).toBeNull();
    expect(imageVariants(null)).toBeNull();
  });
});

describe("variantFiles and parseVariantPath", () => {
  it("names every variant file of a stored image, and nothing for one without", () => {
    const stored = sizedName("deals/xYz", 500, 375, "webp");
    expect(stored).toBe("deals/xYz.500x375.webp");
    expect(variantFiles(stored)).toEqual([
      "deals/xYz.500x375.w320.avif",
      "deals/xYz.500x375.w320.webp",
      "deals/xYz.500x375.w500.avif",
      "deals/xYz.500x375.w500.webp",
    ]);
    expect(variantFiles("deals/xYz.webp")).toEqual([]);
  });

  it("accepts exactly the variants an image has", () => {
    for (const file of variantFiles("demo/deal-a.800x600.webp")) {
      expect(parseVariantPath(file)).not.toBeNull();
    }
    expect(parseVariantPath("demo/deal-a.800x600.w640.avif")).toEqual({
      base: "demo/deal-a.800x600",
      width: 640,
      format: "avif",
    });
    // A width the image has no variant in, a format that is not made, a way out of the folder.
    expect(parseVariantPath("demo/deal-a.800x600.w960.avif")).toBeNull();
    expect(parseVariantPath("demo/deal-a.800x600.w321.webp")).toBeNull();
    expect(parseVariantPath("demo/deal-a.800x600.w320.png")).toBeNull();
    expect(parseVariantPath("demo/../../etc.800x600.w320.webp")).toBeNull();
    expect(parseVariantPath("demo/deal-a.800x600.webp")).toBeNull();
  });
});

describe("negotiated variants", () => {
  it("maps a format-less variant name to its AVIF or WebP file", () => {
    expect(negotiatedVariantTarget("/media/demo/deal-a.800x600.w320", "avif")).toBe(
      "/media/demo/deal-a.800x600.w320.avif",
    );
    expect(negotiatedVariantTarget("/media/demo/deal-a.800x600.w800", "webp")).toBe(
      "/media/demo/deal-a.800x600.w800.webp",
    );
    expect(negotiatedVariantTarget("deals/Ab-c_9.1600x1200.w960", "webp")).toBe(
      "deals/Ab-c_9.1600x1200.w960.webp",
    );
  });

  it("maps nothing else: other names, explicit formats, widths not made, ways out", () => {
    for (const path of [
      "/media/demo/deal-a.800x600.w960", // wider than the image
      "/media/demo/deal-a.800x600.w321",
      "/media/demo/deal-a.800x600.w320.webp",
      "/media/demo/deal-a.800x600.w320.avif",
      "/media/demo/deal-a.800x600.webp",
      "/media/demo/deal-a.800x600",
      "/media/demo/deal-a.w320",
      "/media/demo/../../etc.800x600.w320",
      "/media/demo/%2e%2e/x.800x600.w320",
      "/media/demo/de al.800x600.w320",
      "/media/demo/a.b.800x600.w320",
      "/media/demo/deal-a.800x600.w320?x=1",
      "/media/demo/deal-a.800x600.w0320",
      "",
    ]) {
      for (const format of ["avif", "webp"] as const) {
        expect(negotiatedVariantTarget(path, format), path).toBeNull();
      }
    }
  });
});
