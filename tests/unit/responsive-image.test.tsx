// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import type { ReactNode } from "react";
import { createRoutesStub } from "react-router";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { DealGrid } from "../../app/components/DealCard.tsx";
import { Avatar } from "../../app/components/Avatar.tsx";
import { IMAGE_SIZES, ResponsiveImage } from "../../app/components/ResponsiveImage.tsx";
import { MediaBaseProvider } from "../../app/lib/media-url.tsx";
import { presentDealCard } from "../../core/cards/presenter.ts";
import type { DealCardRow } from "../../core/cards/deal-card-query.ts";

afterEach(cleanup);

const NOW = new Date("2026-06-15T12:00:00Z");

function card(id: number, imageUrl: string) {
  const row: DealCardRow = {
    id,
    unique_id: `deal${id}`,
    slug: `deal-${id}`,
    post_type: "d",
    kind: "deal",
    title: `Deal ${id}`,
    image_url: imageUrl,
    price: 9.99,
    list_price: 14.99,
    discount: 33,
    currency: "USD",
    deal_badge: "",
    link: `https://shop.example/p/${id}`,
    coupon_code: "",
    expires_at: null,
    is_featured: false,
    views: 1,
    likes_count: 0,
    unlikes_count: 0,
    damped_likes: 0,
    damped_unlikes: 0,
    unreasoned_unlikes: 0,
    weight_bonus: 0,
    comments_count: 0,
    created_at: NOW,
    last_verified_at: NOW,
    user_id: 1,
    store_id: 1,
    category_id: 1,
    store_title: "Shop",
    store_slug: "shop",
    user_name: "Sam",
    user_image: "",
    lowest_in_90d: false,
  };
  return presentDealCard(row, NOW);
}

function renderGrid(element: ReactNode) {
  const Stub = createRoutesStub([{ path: "/", Component: () => <>{element}</> }]);
  return render(<Stub initialEntries={["/"]} />);
}

describe("ResponsiveImage", () => {
  it("is one <img> whose srcset names format-less variants, with sizes and the image's own size", () => {
    const { container } = render(
      <ResponsiveImage
        src="/media/deals/abc.1600x1200.webp"
        alt="Crayons"
        width={400}
        height={300}
        sizes={IMAGE_SIZES.post}
        priority
      />,
    );
    // The server picks AVIF or WebP by Accept: no <picture>, no <source>.
    expect(container.querySelector("picture")).toBeNull();
    expect(container.querySelector("source")).toBeNull();
    expect(container.querySelectorAll("img")).toHaveLength(1);
    const img = container.querySelector("img")!;
    expect(img.parentElement).toBe(container);
    expect(img.getAttribute("src")).toBe("/media/deals/abc.1600x1200.webp");
    expect(img.getAttribute("srcset")).toBe(
      "/media/deals/abc.1600x1200.w320 320w, /media/deals/abc.1600x1200.w640 640w, /media/deals/abc.1600x1200.w960 960w",
    );
    expect(img.getAttribute("sizes")).toBe(IMAGE_SIZES.post);
    expect(img.getAttribute("width")).toBe("1600");
    expect(img.getAttribute("height")).toBe("1200");
    expect(img.getAttribute("loading")).toBe("eager");
    expect(img.getAttribute("fetchpriority")).toBe("high");
    expect(img.hasAttribute("decoding")).toBe(false);
    expect(img.getAttribute("alt")).toBe("Crayons");
  });

  it("keeps a lazy image's decoding and class on the one <img>", () => {
    const { container } = render(
      <ResponsiveImage
        src="/media/demo/deal-a.800x600.webp"
        alt=""
        width={400}
        height={300}
        sizes={IMAGE_SIZES.card}
        className="thumb"
      />,
    );
    const img = container.querySelector("img")!;
    expect(img.getAttribute("class")).toBe("thumb");
    expect(img.getAttribute("loading")).toBe("lazy");
    expect(img.getAttribute("decoding")).toBe("async");
    expect(img.hasAttribute("fetchpriority")).toBe(false);
    expect(img.getAttribute("srcset")).not.toMatch(/\.(avif|webp) /);
  });

  it("is a plain lazy <img> in the slot's size for an image stored without variants", () => {
    const { container } = render(
      <ResponsiveImage
        src="https://images.example.com/a.png"
        alt=""
        width={400}
        height={300}
        sizes={IMAGE_SIZES.card}
      />,
    );
    expect(container.querySelector("picture")).toBeNull();
    const img = container.querySelector("img")!;
    expect(img.hasAttribute("srcset")).toBe(false);
    expect(img.hasAttribute("sizes")).toBe(false);
    expect(img.getAttribute("width")).toBe("400");
    expect(img.getAttribute("height")).toBe("300");
    expect(img.getAttribute("loading")).toBe("lazy");
    expect(img.hasAttribute("fetchpriority")).toBe(false);
  });
});

describe("DealGrid", () => {
  const deals = [
    card(1, "/media/demo/deal-a.800x600.webp"),
    card(2, "/media/demo/deal-b.800x600.webp"),
    card(3, "/media/deals/older.webp"),
  ];

  it("loads the first card's image at once with priorityFirst, and the rest lazily", () => {
    const { container } = renderGrid(<DealGrid deals={deals} priorityFirst />);
    const images = [...container.querySelectorAll(".deal-card-image img")];
    expect(images.map((img) => img.getAttribute("loading"))).toEqual(["eager", "lazy", "lazy"]);
    expect(images.map((img) => img.getAttribute("fetchpriority"))).toEqual(["high", null, null]);
    expect(images[0]!.getAttribute("sizes")).toBe(IMAGE_SIZES.card);
    expect(images[1]!.getAttribute("srcset")).toContain("/media/demo/deal-b.800x600.w800 800w");
    expect(container.querySelector(".deal-card-image picture, .deal-card-image source")).toBeNull();
    expect(images[2]!.hasAttribute("srcset")).toBe(false);
  });

  it("leaves every image lazy without it", () => {
    const { container } = renderGrid(<DealGrid deals={deals} />);
    const images = [...container.querySelectorAll(".deal-card-image img")];
    expect(images.map((img) => img.getAttribute("loading"))).toEqual(["lazy", "lazy", "lazy"]);
  });
});

describe("MEDIA_BASE_URL", () => {
  const CDN = "https://cdn.example.com/media";

  it("links an image and every variant of its srcset there, as a <picture> with formats named", () => {
    const { container } = render(
      <MediaBaseProvider baseUrl={CDN}>
        <ResponsiveImage
          src="/media/deals/abc.800x600.webp"
          alt=""
          width={400}
          height={300}
          sizes={IMAGE_SIZES.card}
        />
      </MediaBaseProvider>,
    );
    // A CDN or bucket cannot negotiate: the browser picks the format.
    const source = container.querySelector("picture.responsive-image > source")!;
    expect(source.getAttribute("type")).toBe("image/avif");
    expect(source.getAttribute("sizes")).toBe(IMAGE_SIZES.card);
    expect(source.getAttribute("srcset")).toBe(
      `${CDN}/deals/abc.800x600.w320.avif 320w, ${CDN}/deals/abc.800x600.w640.avif 640w, ${CDN}/deals/abc.800x600.w800.avif 800w`,
    );
    const img = container.querySelector("picture > img")!;
    expect(img.getAttribute("src")).toBe(`${CDN}/deals/abc.800x600.webp`);
    expect(img.getAttribute("srcset")).toBe(
      `${CDN}/deals/abc.800x600.w320.webp 320w, ${CDN}/deals/abc.800x600.w640.webp 640w, ${CDN}/deals/abc.800x600.w800.webp 800w`,
    );
    expect(img.getAttribute("sizes")).toBe(IMAGE_SIZES.card);
  });

  it("is a plain <img> there for an image without variants", () => {
    const { container } = render(
      <MediaBaseProvider baseUrl={CDN}>
        <ResponsiveImage
          src="/media/deals/older.webp"
          alt=""
          width={400}
          height={300}
          sizes={IMAGE_SIZES.card}
        />
      </MediaBaseProvider>,
    );
    expect(container.querySelector("picture")).toBeNull();
    expect(container.querySelector("img")!.getAttribute("src")).toBe(`${CDN}/deals/older.webp`);
  });

  it("shows no other site's image (an initial instead), and /media/ as it is without a base", () => {
    const { container } = render(
      <>
        <MediaBaseProvider baseUrl={CDN}>
          <Avatar name="Sam" image="https://lh3.example.com/a.png" />
          <Avatar name="Kim" image="/media/avatars/k.webp" />
        </MediaBaseProvider>
        <MediaBaseProvider baseUrl={null}>
          <Avatar name="Lee" image="/media/avatars/l.webp" />
        </MediaBaseProvider>
      </>,
    );
    expect([...container.querySelectorAll("img")].map((img) => img.getAttribute("src"))).toEqual([
      `${CDN}/avatars/k.webp`,
      "/media/avatars/l.webp",
    ]);
    // An outside address would let its owner log each viewer (record 0074).
    expect(container.querySelector(".avatar-initial")!.textContent).toBe("S");
  });
});

describe("the page's main picture", () => {
  const page = (priority: boolean, baseUrl: string | null = null) =>
    renderToString(
      <html>
        <head />
        <body>
          <MediaBaseProvider baseUrl={baseUrl}>
            <ResponsiveImage
              src="/media/uploads/abc.800x600.webp"
              alt="A deal"
              sizes={IMAGE_SIZES.post}
              width={800}
              height={600}
              priority={priority}
            />
          </MediaBaseProvider>
        </body>
      </html>,
    );
  const preloads = (html: string) => {
    const head = /<head>(.*)<\/head>/.exec(html)?.[1] ?? "";
    return head.match(/<link rel="preload" as="image"[^>]*>/g) ?? [];
  };

  it("is preloaded from the head by its negotiated srcset, with no type", () => {
    const links = preloads(page(true));
    expect(links).toHaveLength(1);
    const [preload] = links as [string];
    expect(preload).not.toContain("type=");
    expect(preload).toContain('fetchPriority="high"');
    expect(preload).toContain(
      'imageSrcSet="/media/uploads/abc.800x600.w320 320w, /media/uploads/abc.800x600.w640 640w, /media/uploads/abc.800x600.w800 800w"',
    );
    expect(preload).toContain(`imageSizes="${IMAGE_SIZES.post}"`);
    // Other pictures load lazily and are not preloaded.
    expect(page(false)).not.toContain('rel="preload"');
  });

  it("is preloaded by its AVIF candidates with MEDIA_BASE_URL (React preloads no image inside a <picture>)", () => {
    const CDN = "https://cdn.example.com/media";
    const links = preloads(page(true, CDN));
    expect(links).toHaveLength(1);
    const [preload] = links as [string];
    expect(preload).toContain('type="image/avif"');
    expect(preload).toContain('fetchPriority="high"');
    expect(preload).toContain(`${CDN}/uploads/abc.800x600.w640.avif 640w`);
    expect(preload).toContain(`imageSizes="${IMAGE_SIZES.post}"`);
    expect(page(false, CDN)).not.toContain('rel="preload"');
  });
});
