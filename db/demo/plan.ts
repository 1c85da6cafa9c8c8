import { linkKey, slugify } from "../../core/posts/identity.ts";
import {
  CATEGORIES,
  FREEBIES,
  GENERAL_STORES,
  type CategorySeed,
  type ProductSeed,
} from "./categories.ts";
import {
  DEAL_COMMENTS,
  DEAL_FORUM_CATEGORIES,
  DISCUSSION_CLOSINGS,
  DISCUSSION_COMMENTS,
  DISCUSSION_FORUM_CATEGORIES,
  DISCUSSIONS,
  REPLIES,
} from "./forum.ts";
import {
  avatarSvg,
  dealSvg,
  discussionSvg,
  logoSvg,
  dealImageFile,
  postImageFile,
  storeBadgeSvg,
  tileSvg,
  type DealImageSpec,
  type ImageJob,
} from "./images.ts";
import { DEMO_EMAIL, USERS, WISHLIST, type UserSeed } from "./people.ts";
import { Random } from "./random.ts";
import { SITE_NAME } from "./site.ts";
import { STORES, type StoreSeed } from "./stores.ts";

/**
 * The demo content as plain rows, computed from a fixed seed only: times are minutes before "now"
 * (agoMin), so the same plan is produced on every run and seed.ts turns it into dates.
 */

export type DemoScale = "full" | "small";

export interface ScaleSize {
  stores: number;
  categories: number;
  deals: number;
  discussions: number;
  users: number;
}

export const SCALES: Record<DemoScale, ScaleSize> = {
  full: {
    stores: STORES.length,
    categories: CATEGORIES.length,
    deals: 640,
    discussions: 60,
    users: 40,
  },
  small: { stores: 12, categories: 8, deals: 60, discussions: 15, users: 8 },
};

const MINUTES_PER_DAY = 24 * 60;
/** Deals and discussions are spread over the six months before now. */
const POST_WINDOW_DAYS = 182;
/** Members joined over the two years before now. */
const JOIN_WINDOW_DAYS = 730;
const FEATURED_STORES = 8;

export interface PlanUser {
  id: number;
  seed: UserSeed;
  email: string;
  mobile: string;
  dob: string | null;
  agoMin: number;
  imageFile: string;
}

export interface PlanStore {
  id: number;
  seed: StoreSeed;
  slug: string;
  imageFile: string;
}

export interface PlanCategory {
  id: number;
  seed: CategorySeed;
  slug: string;
  imageFile: string;
}

export interface PlanForumCategory {
  id: number;
  forumId: number;
  kind: "deal" | "discussion";
  title: string;
  position: number;
}

export interface PlanPost {
  id: number;
  uniqueId: string;
  slug: string;
  postType: "d" | "g";
  kind: "deal" | "coupon" | "discussion";
  userId: number;
  forumCategoryId: number;
  storeId: number | null;
  categoryId: number | null;
  title: string;
  description: string;
  descriptionText: string;
  imageFile: string;
  price: number | null;
  listPrice: number | null;
  discount: number | null;
  dealBadge: string;
  link: string;
  linkKey: string;
  couponCode: string;
  /** Minutes after creation at which the offer ends; null: no end date. */
  expiresAfterMin: number | null;
  isFeatured: boolean;
  views: number;
  agoMin: number;
}

export interface PlanComment {
  id: number;
  postId: number;
  userId: number;
  parentId: number | null;
  body: string;
  agoMin: number;
}

export interface PlanLike {
  postId: number;
  userId: number;
  reaction: "like" | "unlike";
  agoMin: number;
}

export interface PlanFollow {
  followerId: number;
  followeeId: number;
  agoMin: number;
}

/** A post written after the members and posts of the plan: no id or author of its own yet. */
export type HeldPlanPost = Omit<PlanPost, "id" | "userId">;

/** An open report by a member (record 0031): the console's queue is not empty on first start. */
export interface PlanReport {
  itemType: "d" | "g" | "comment" | "user";
  /** The post's unique_id, the comment's id or the user's id, as stored. */
  itemId: string;
  reporterId: number;
  reason: "spam" | "expired" | "wrong price" | "offensive" | "duplicate" | "other";
  note: string;
  agoMin: number;
}

export interface PlanWishlist {
  firstName: string;
  lastName: string;
  schoolLocation: string;
  amazonWishlist: string;
  position: number;
  agoMin: number;
}

export interface DemoPlan {
  users: PlanUser[];
  stores: PlanStore[];
  categories: PlanCategory[];
  forums: {
    id: number;
    title: string;
    slug: string;
    detail: string;
    type: "g" | "d";
    position: number;
  }[];
  forumCategories: PlanForumCategory[];
  posts: PlanPost[];
  comments: PlanComment[];
  likes: PlanLike[];
  follows: PlanFollow[];
  wishlist: PlanWishlist[];
  featuredStoreIds: number[];
  /** The forum's welcome post, the navigation bar's fixed Educators link. */
  educatorPostUniqueId: string;
  /** Open reports: several members on one deal, one on a comment, one on a member. */
  reports: PlanReport[];
  /**
   * The newcomer's first post (people.ts DEMO_NEWCOMER), held for review (status "pending"). Its
   * id and author come from the sequences when it is written, after every other post and member.
   */
  heldPost: HeldPlanPost;
  images: ImageJob[];
}

/** slugify() without the dash it puts where an apostrophe was ("Kohl's" → "kohls"). */
export function slugOf(text: string): string {
  return slugify(text.replace(/['’]/g, ""));
}

/** Escapes text for HTML element content and attribute values. */
function html(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** "$3.97", "$1,099.99"; whole dollars without cents ("$299"). */
export function money(cents: number): string {
  const dollars = cents / 100;
  return cents % 100 === 0
    ? `$${dollars.toLocaleString("en-US")}`
    : `$${dollars.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A description as HTML and as plain text, built from the same blocks. */
class Description {
  readonly #html: string[] = [];
  readonly #text: string[] = [];

  /** A paragraph; **bold** marks <strong> text. Input is plain text. */
  paragraph(text: string): this {
    this.#html.push(`<p>${html(text).replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")}</p>`);
    this.#text.push(text.replace(/\*\*/g, ""));
    return this;
  }

  list(items: readonly string[]): this {
    if (items.length === 0) return this;
    this.#html.push(`<ul>${items.map((i) => `<li>${html(i)}</li>`).join("")}</ul>`);
    this.#text.push(items.map((i) => `• ${i}`).join("\n"));
    return this;
  }

  get html(): string {
    return this.#html.join("\n");
  }

  get text(): string {
    return this.#text.join("\n\n");
  }
}

/** A believable shelf price below the computed one: $3.97, $24.99, $279.99, $300. */
function shelfPrice(rawCents: number, rng: Random): number {
  const dollars = Math.floor(rawCents / 100);
  if (rawCents < 10_000) {
    const ending = rng.pick(rawCents < 1_000 ? [97, 99, 49, 79] : [99, 97, 49, 95]);
    return Math.max(dollars, 0) * 100 + ending;
  }
  const tens = Math.round(rawCents / 1_000);
  return rng.chance(0.7) ? tens * 1_000 - 1 : tens * 1_000;
}

function productLink(store: StoreSeed, productSlug: string, rng: Random): string {
  const base = `https://www.${store.domain}`;
  const slug = productSlug.slice(0, 60).replace(/-+$/, "");
  switch (store.linkStyle) {
    case "amazon":
      return `${base}/dp/B0${rng.string(8, "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")}`;
    case "target":
      return `${base}/p/${slug}/-/A-${rng.digits(8)}`;
    case "walmart":
      return `${base}/ip/${slug}/${rng.digits(9)}`;
    case "bestbuy": {
      const sku = rng.digits(7);
      return `${base}/site/${slug}/${sku}.p?skuId=${sku}`;
    }
    case "product":
      return `${base}/product/${slug}`;
    case "products":
      return `${base}/products/${slug}`;
    case "p":
      return `${base}/p/${slug}`;
    case "item":
      return `${base}/listing/${rng.digits(10)}/${slug}`;
  }
}

const AVATAR_COLORS = [
  "#2F5D50",
  "#E4572E",
  "#2E86AB",
  "#6A4C93",
  "#D1495B",
  "#2A9D8F",
  "#F2A541",
  "#457B9D",
  "#8D6A9F",
  "#E76F51",
];

const GENERIC_BULLETS: readonly string[] = [
  "Free shipping on qualifying orders, or choose free store pickup",
  "Ships in 1–2 business days",
  "Limit 5 per customer",
  "Available for same-day pickup at most locations",
  "Eligible for free returns within 30 days",
];

const DEAL_TIPS: readonly string[] = [
  "Prices at {store} change often; if it's higher when you click, the deal may have ended.",
  "Tip: many stores offer a teacher discount — sign in with your educator account before you check out.",
  "Add it to your classroom wish list if you'd rather let families help.",
  "Heads up: this one sold out quickly the last time it dropped this low.",
  "Stack it with a gift card from Teacher Appreciation Week for an even better price.",
];

const COUPON_TERMS: readonly string[] = [
  "One use per account",
  "Excludes gift cards and select brands",
  "Cannot be combined with some other offers",
  "Valid on regular and sale prices",
  "Applies before taxes and shipping",
];

const CODE_PREFIXES = ["SAVE", "TEACH", "CLASS", "SCHOOL", "EDU", "EXTRA", "HELLO", "SMART"];

interface Offer {
  title: string;
  /** The big text of the deal image. */
  headline: string;
  description: Description;
  priceCents: number | null;
  listCents: number | null;
  discount: number;
  code: string;
  badge: string;
  showDiscount: boolean;
}

/** A deal or a coupon on one product. */
function productOffer(rng: Random, product: ProductSeed, store: string, isCoupon: boolean): Offer {
  const listCents = Math.round(product.listPrice * 100);
  const description = new Description();
  const l = money(listCents);
  if (isCoupon) {
    const discount = rng.pick(listCents >= 30_000 ? [5, 10, 15] : [10, 15, 20, 25, 30]);
    const priceCents = Math.floor((listCents * (100 - discount)) / 100);
    const code = `${rng.pick(CODE_PREFIXES)}${discount}`;
    const p = money(priceCents);
    const title = rng.chance(0.6)
      ? `${product.name} – ${p} with Code ${code} (was ${l})`
      : `Extra ${discount}% Off ${product.name} at ${store} with Code ${code}`;
    description.paragraph(
      `Use code **${code}** at checkout to take ${discount}% off the **${product.name}** at ${store}, bringing it to **${p}** (regularly ${l}).`,
    );
    const headline = product.name;
    return {
      title,
      headline,
      description,
      priceCents,
      listCents,
      discount,
      code,
      badge: "",
      showDiscount: true,
    };
  }
  const pct =
    listCents >= 30_000
      ? rng.int(8, 30)
      : rng.weighted([rng.int(10, 24), rng.int(25, 44), rng.int(45, 70)], [4, 4, 2]);
  let priceCents = shelfPrice(Math.round((listCents * (100 - pct)) / 100), rng);
  if (priceCents >= listCents || priceCents <= 0) priceCents = Math.floor(listCents * 0.9);
  const discount = Math.round((1 - priceCents / listCents) * 100);
  const p = money(priceCents);
  const style = rng.weighted([0, 1, 2, 3, 4], [5, 2, 1, 1, 1]);
  const title = [
    `${product.name} – ${p} (was ${l})`,
    `${product.name} for ${p} at ${store}`,
    `${product.name} – ${p} + Free Shipping`,
    `${discount}% Off ${product.name} – Now ${p}`,
    `Price Drop: ${product.name} – ${p} at ${store}`,
  ][style]!;
  description.paragraph(
    rng.pick([
      `${store} has the **${product.name}** for **${p}**, down from ${l} — ${discount}% off and one of the best prices we've seen on it this year.`,
      `Nice price drop at ${store}: the **${product.name}** is **${p}** right now (regularly ${l}).`,
      `Heads up, teachers: ${store} marked the **${product.name}** down to **${p}**. It lists for ${l}, so you save ${money(listCents - priceCents)}.`,
    ]),
  );
  return {
    title,
    headline: product.name,
    description,
    priceCents,
    listCents,
    discount,
    code: "",
    badge: style === 2 ? "Free Shipping" : "",
    showDiscount: true,
  };
}

/** A store-wide coupon on a category (no single price). */
function storeWideOffer(rng: Random, category: CategorySeed, store: string): Offer {
  const c = category.title;
  const description = new Description();
  const style = rng.int(0, 3);
  if (style === 3) {
    const min = rng.pick([50, 75, 100]);
    const amount = rng.pick([10, 15, 20]);
    const code = `TAKE${amount}`;
    description.paragraph(
      `Spend $${min} or more on ${c.toLowerCase()} at ${store} and code **${code}** takes **$${amount} off** your order.`,
    );
    return {
      title: `$${amount} Off $${min}+ ${c} Order at ${store} with Code ${code}`,
      headline: `$${amount} off $${min}+ ${c}`,
      description,
      priceCents: null,
      listCents: null,
      discount: Math.round((amount / min) * 100),
      code,
      badge: "",
      showDiscount: false,
    };
  }
  const discount = rng.pick([10, 15, 20, 25, 30, 40]);
  const code = `${rng.pick(CODE_PREFIXES)}${discount}`;
  description.paragraph(
    `Use code **${code}** at checkout to save **${discount}%** on ${c.toLowerCase()} at ${store}. ${category.description}`,
  );
  return {
    title: [
      `${store} Coupon: Extra ${discount}% Off ${c} with Code ${code}`,
      `${discount}% Off ${c} at ${store} with Code ${code}`,
      `Teachers Save ${discount}% on ${c} at ${store} – Code ${code}`,
    ][style]!,
    headline: `${discount}% off ${c}`,
    description,
    priceCents: null,
    listCents: null,
    discount,
    code,
    badge: "",
    showDiscount: true,
  };
}

function pushUnique<T>(set: Set<T>, value: T): boolean {
  if (set.has(value)) return false;
  set.add(value);
  return true;
}

export function buildDemoPlan(scale: DemoScale): DemoPlan {
  const size = SCALES[scale];
  // Each part draws from its own fork of one fixed seed; the forks are taken in this order.
  const root = new Random("chalkboard-deals-demo-v1");
  const images: ImageJob[] = [
    { file: "logo.png", svg: () => logoSvg(SITE_NAME) },
    { file: "google-play-badge.png", svg: () => storeBadgeSvg("google-play") },
    { file: "app-store-badge.png", svg: () => storeBadgeSvg("app-store") },
  ];

  const users = planUsers(root.fork("users"), size.users, images);
  const stores = planStores(size.stores, images);
  const categories = planCategories(size.categories, images);
  const forumCategories = planForumCategories();
  const context: PostContext = {
    users,
    categories,
    storeByTitle: new Map(stores.map((s) => [s.seed.title, s])),
    categoryByTitle: new Map(categories.map((c) => [c.seed.title, c])),
    forumCategoryId: (title) => forumCategories.find((fc) => fc.title === title)!.id,
    images,
  };

  const dealRng = root.fork("deals");
  const titles = new Set<string>();
  const freebies = planFreebies(dealRng, context, titles);
  const drafts = [
    ...freebies,
    ...planOffers(dealRng, context, size.deals - freebies.length, titles),
    ...planDiscussions(root.fork("discussions"), context, size.discussions),
  ];
  keepCouponAmongNewest(drafts);

  const posts = numberPosts(root.fork("unique-ids"), drafts);
  const welcome = featurePosts(root.fork("featured"), posts, scale === "full" ? 8 : 3);
  endOneOfNewestDeals(posts);
  const { comments, likes } = planCommentsAndLikes(root.fork("comments"), posts, users);
  // Taken last, so the other parts stay as they were before moderation existed.
  const moderationRng = root.fork("moderation");
  const heldPost = planHeldPost(moderationRng, posts, forumCategories);

  return {
    users,
    stores,
    categories,
    forums: FORUMS,
    forumCategories,
    posts,
    comments,
    likes,
    follows: planFollows(root.fork("follows"), users),
    wishlist: planWishlist(root.fork("wishlist")),
    featuredStoreIds: stores.slice(0, FEATURED_STORES).map((s) => s.id),
    educatorPostUniqueId: welcome.uniqueId,
    reports: planReports(posts, comments, users),
    heldPost,
    images,
  };
}

// Moderation ----------------------------------------------------------------------------------

/**
 * Open reports for the console's queue: two members on one live deal (below the default hide
 * threshold of 3, so it stays public), one on a comment of a discussion, one on a member. Picked
 * by rank, never at random, so the same rows come out at every scale.
 */
function planReports(
  posts: readonly PlanPost[],
  comments: readonly PlanComment[],
  users: readonly PlanUser[],
): PlanReport[] {
  const reportAgo = (itemAgo: number, wanted: number) => Math.max(1, Math.min(wanted, itemAgo - 1));
  const others = (exclude: number) =>
    users.filter((u) => u.id !== exclude && u.email !== DEMO_EMAIL);

  const deal = newestDeals(posts).filter(
    (p) => !p.isFeatured && (p.expiresAfterMin === null || p.expiresAfterMin > p.agoMin),
  )[5]!;
  const [first, second] = others(deal.userId);
  const reports: PlanReport[] = [
    {
      itemType: "d",
      itemId: deal.uniqueId,
      reporterId: first!.id,
      reason: "wrong price",
      note: "The store shows a higher price than the one in the title.",
      agoMin: reportAgo(deal.agoMin, 95),
    },
    {
      itemType: "d",
      itemId: deal.uniqueId,
      reporterId: second!.id,
      reason: "expired",
      note: "",
      agoMin: reportAgo(deal.agoMin, 40),
    },
  ];

  const discussionIds = new Set(posts.filter((p) => p.postType === "g").map((p) => p.id));
  const comment = comments.find((c) => c.parentId === null && discussionIds.has(c.postId))!;
  reports.push({
    itemType: "comment",
    itemId: String(comment.id),
    reporterId: others(comment.userId)[0]!.id,
    reason: "offensive",
    note: "Rude to another teacher.",
    agoMin: reportAgo(comment.agoMin, 180),
  });

  const reported = users[users.length - 1]!;
  reports.push({
    itemType: "user",
    itemId: String(reported.id),
    reporterId: others(reported.id)[1]!.id,
    reason: "spam",
    note: "Posts the same shop link under every deal.",
    agoMin: reportAgo(reported.agoMin, 300),
  });
  return reports;
}

/**
 * The newcomer's first post, held for review: a discussion of a few hours ago (the newcomer joined
 * two days ago), with a unique_id no other post has.
 */
function planHeldPost(
  rng: Random,
  posts: readonly PlanPost[],
  forumCategories: readonly PlanForumCategory[],
): HeldPlanPost {
  const category = DISCUSSION_FORUM_CATEGORIES[0];
  const title = "New here: where do you find cheap books for a classroom library?";
  const description = new Description()
    .paragraph(
      "Hi all, first post! I teach second grade and I'm building a classroom library from scratch.",
    )
    .paragraph(
      "Where do you find good books for less? I've tried library sales; anything else worth a look?",
    );
  const used = new Set(posts.map((p) => p.uniqueId));
  let uniqueId = rng.uniqueId();
  while (used.has(uniqueId)) uniqueId = rng.uniqueId();
  return {
    uniqueId,
    slug: slugOf(title),
    postType: "g",
    kind: "discussion",
    forumCategoryId: forumCategories.find(
      (fc) => fc.kind === "discussion" && fc.title === category,
    )!.id,
    storeId: null,
    categoryId: null,
    title,
    description: description.html,
    descriptionText: description.text,
    imageFile: postImageFile(`discussion-${slugOf(category)}`),
    price: null,
    listPrice: null,
    discount: null,
    dealBadge: "",
    link: "",
    linkKey: "",
    couponCode: "",
    expiresAfterMin: null,
    isFeatured: false,
    views: 0,
    agoMin: 180,
  };
}

// Members -------------------------------------------------------------------------------------

function planUsers(rng: Random, count: number, images: ImageJob[]): PlanUser[] {
  return USERS.slice(0, count).map((seed, i) => {
    const id = i + 1;
    const local = seed.name
      .toLowerCase()
      .replace(/['’]/g, "")
      .replace(/[^a-z]+/g, ".");
    const email = id === 1 ? DEMO_EMAIL : `${local}@${i % 3 === 2 ? "example.org" : "example.com"}`;
    const agoMin =
      id === 1
        ? JOIN_WINDOW_DAYS * MINUTES_PER_DAY
        : rng.int(5 * MINUTES_PER_DAY, (JOIN_WINDOW_DAYS - 5) * MINUTES_PER_DAY);
    const mobile = rng.chance(0.6) ? `${rng.int(201, 989)}55501${rng.int(10, 99)}` : "";
    const dob = rng.chance(0.7)
      ? `${rng.int(1965, 2001)}-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`
      : null;
    const slug = slugOf(seed.name);
    const color = AVATAR_COLORS[i % AVATAR_COLORS.length]!;
    const imageFile = `avatar-${slug}.webp`;
    images.push({ file: imageFile, svg: () => avatarSvg(seed.name, color) });
    return { id, seed, email, mobile, dob, agoMin, imageFile };
  });
}

/** The members who had joined by then: the only ones who can post, comment or like at that time. */
function membersAt(users: readonly PlanUser[], agoMin: number): PlanUser[] {
  return users.filter((u) => u.agoMin > agoMin);
}

function planFollows(rng: Random, users: readonly PlanUser[]): PlanFollow[] {
  const follows: PlanFollow[] = [];
  const followKeys = new Set<string>();
  const follow = (follower: PlanUser, followee: PlanUser) => {
    if (follower.id === followee.id || !pushUnique(followKeys, `${follower.id}>${followee.id}`)) {
      return;
    }
    const since = Math.min(follower.agoMin, followee.agoMin);
    follows.push({
      followerId: follower.id,
      followeeId: followee.id,
      agoMin: rng.int(60, since - 1),
    });
  };
  for (const user of users) {
    const others = users.filter((u) => u.id !== user.id);
    const count = rng.int(
      Math.min(2, others.length),
      Math.min(others.length, user.id === 1 ? 9 : 7),
    );
    for (const other of rng.sample(others, count)) follow(user, other);
  }
  // The demo account is the best-followed member.
  for (const fan of rng.sample(users.slice(1), Math.ceil(users.length * 0.3)))
    follow(fan, users[0]!);
  return follows;
}

function planWishlist(rng: Random): PlanWishlist[] {
  return WISHLIST.map((w, i) => ({
    firstName: w.firstName,
    lastName: w.lastName,
    schoolLocation: w.schoolLocation,
    amazonWishlist: `https://www.amazon.com/hz/wishlist/ls/${rng.string(13, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")}`,
    position: i + 1,
    agoMin: rng.int(1, 120) * MINUTES_PER_DAY,
  }));
}

// Catalogue and forums ------------------------------------------------------------------------

function planStores(count: number, images: ImageJob[]): PlanStore[] {
  return STORES.slice(0, count).map((seed, i) => {
    const slug = slugOf(seed.title);
    const imageFile = `store-${slug}.webp`;
    images.push({ file: imageFile, svg: () => tileSvg(seed.title, seed.color, seed.domain) });
    return { id: i + 1, seed, slug, imageFile };
  });
}

function planCategories(count: number, images: ImageJob[]): PlanCategory[] {
  return CATEGORIES.slice(0, count).map((seed, i) => {
    const slug = slugOf(seed.title);
    const imageFile = `category-${slug}.webp`;
    images.push({ file: imageFile, svg: () => tileSvg(seed.title, seed.color, "Shop the deals") });
    return { id: i + 1, seed, slug, imageFile };
  });
}

const FORUMS: DemoPlan["forums"] = [
  {
    id: 1,
    title: "Educators",
    slug: "educators",
    detail:
      "Teachers, librarians and school staff trading classroom ideas, product recommendations and funding tips.",
    type: "g",
    position: 1,
  },
  {
    id: 2,
    title: "Deals",
    slug: "deals",
    detail:
      "The newest deals, coupons and freebies on school supplies, classroom tech, books and more, posted by the community.",
    type: "d",
    position: 2,
  },
];

function planForumCategories(): PlanForumCategory[] {
  return [
    ...DEAL_FORUM_CATEGORIES.map((title, i) => ({
      title,
      kind: "deal" as const,
      forumId: 2,
      position: i + 1,
    })),
    ...DISCUSSION_FORUM_CATEGORIES.map((title, i) => ({
      title,
      kind: "discussion" as const,
      forumId: 1,
      position: i + 1,
    })),
  ].map((fc, i) => ({ ...fc, id: i + 1 }));
}

// Deals, coupons and discussions --------------------------------------------------------------

/** A post before it has its place in time order (id), unique_id, slug and featured flag. */
type DraftPost = Omit<PlanPost, "id" | "uniqueId" | "slug" | "isFeatured">;

/** What the post builders draw on: the members, the catalogue and the forum's categories. */
interface PostContext {
  users: readonly PlanUser[];
  categories: readonly PlanCategory[];
  storeByTitle: ReadonlyMap<string, PlanStore>;
  categoryByTitle: ReadonlyMap<string, PlanCategory>;
  forumCategoryId: (title: string) => number;
  images: ImageJob[];
}

/** When a post was written: more recent posts than old ones, as on a living site. */
function postAgo(rng: Random): number {
  return Math.max(30, Math.floor(Math.pow(rng.next(), 1.5) * POST_WINDOW_DAYS * MINUTES_PER_DAY));
}

/** A member who had joined by then; the demo account posts more than the others. */
function pickAuthor(rng: Random, users: readonly PlanUser[], agoMin: number): number {
  const eligible = membersAt(users, agoMin);
  return rng.weighted(
    eligible,
    eligible.map((u) => (u.id === 1 ? 4 : 1)),
  ).id;
}

/** Who sells the product; with no product, who could run a category-wide coupon. */
function storesFor(
  storeByTitle: PostContext["storeByTitle"],
  category: CategorySeed,
  product?: ProductSeed,
): PlanStore[] {
  const titles = product
    ? (product.stores ?? [...category.stores, ...GENERAL_STORES, ...(product.alsoAt ?? [])])
    : [
        ...category.stores,
        ...GENERAL_STORES,
        ...category.products.flatMap((p) => [...(p.stores ?? []), ...(p.alsoAt ?? [])]),
      ];
  return [...new Set(titles)]
    .map((t) => storeByTitle.get(t))
    .filter((s): s is PlanStore => s !== undefined);
}

/** Every freebie whose store and category are in the catalogue. Adds the titles to `titles`. */
function planFreebies(rng: Random, context: PostContext, titles: Set<string>): DraftPost[] {
  const drafts: DraftPost[] = [];
  for (const freebie of FREEBIES) {
    const store = context.storeByTitle.get(freebie.store);
    const category = context.categoryByTitle.get(freebie.category);
    if (!store || !category) continue;
    const agoMin = postAgo(rng);
    const description = new Description()
      .paragraph(
        `**${freebie.title.replace(/^free:?\s*/i, "")}** is free right now from ${store.seed.title} (normally ${money(Math.round(freebie.listPrice * 100))}).`,
      )
      .list([
        "No coupon code needed",
        "Teacher or school email may be required",
        "Available while supplies last",
      ])
      .paragraph(
        "Freebies like this go fast, so grab it today and share it with your grade-level team.",
      );
    const link = `https://www.${store.seed.domain}${freebie.path}`;
    titles.add(freebie.title);
    const imageFile = dealImageFile(`${freebie.title}\n${store.slug}`);
    const seed = category.seed;
    context.images.push({
      file: imageFile,
      svg: () =>
        dealSvg({
          headline: freebie.title,
          color: seed.color,
          kind: "deal",
          price: "FREE",
          discount: 100,
        }),
    });
    drafts.push({
      postType: "d",
      kind: "deal",
      userId: pickAuthor(rng, context.users, agoMin),
      forumCategoryId: context.forumCategoryId("Freebies"),
      storeId: store.id,
      categoryId: category.id,
      title: freebie.title,
      description: description.html,
      descriptionText: description.text,
      imageFile,
      price: 0,
      listPrice: freebie.listPrice,
      discount: 100,
      dealBadge: rng.pick(["Hot Deal", "Teacher Favorite", ""]),
      link,
      linkKey: linkKey(link),
      couponCode: "",
      expiresAfterMin: rng.int(3, 30) * MINUTES_PER_DAY,
      views: rng.skewed(80, 6000, 2),
      agoMin,
    });
  }
  return drafts;
}

/** What a deal or coupon is about: a product at a store, or (product undefined) a whole category. */
interface OfferTarget {
  category: PlanCategory;
  product: ProductSeed | undefined;
  store: PlanStore;
  isCoupon: boolean;
}

/**
 * `count` deals and coupons with distinct titles, each on a distinct product (or category) and
 * store pair, spread over all stores. Adds the titles to `titles`.
 */
function planOffers(
  rng: Random,
  context: PostContext,
  count: number,
  titles: Set<string>,
): DraftPost[] {
  const drafts: DraftPost[] = [];
  const pairs = new Set<string>();
  const dealsPerStore = new Map<number, number>();
  let attempts = 0;
  while (drafts.length < count) {
    if (++attempts > count * 50) throw new Error("Demo data: not enough distinct deals");
    const target = pickOfferTarget(rng, context, dealsPerStore);
    if (!target) continue;
    const { category, product, store, isCoupon } = target;
    const pairKey = `${store.id}|${product ? product.name : `all:${category.id}`}`;
    if (pairs.has(pairKey)) continue;
    const offer = product
      ? productOffer(rng, product, store.seed.title, isCoupon)
      : storeWideOffer(rng, category.seed, store.seed.title);
    if (titles.has(offer.title)) continue; // seen before: try another combination
    titles.add(offer.title);
    pairs.add(pairKey);
    dealsPerStore.set(store.id, (dealsPerStore.get(store.id) ?? 0) + 1);
    drafts.push(offerPost(rng, context, target, offer));
  }
  return drafts;
}

/** A category, maybe a product of it, and a store that sells it; undefined when none does. */
function pickOfferTarget(
  rng: Random,
  context: PostContext,
  dealsPerStore: ReadonlyMap<number, number>,
): OfferTarget | undefined {
  const category = rng.pick(context.categories);
  const seed = category.seed;
  const isCoupon = rng.chance(0.3);
  const product = isCoupon && rng.chance(0.4) ? undefined : rng.pick(seed.products);
  const candidates = storesFor(context.storeByTitle, seed, product);
  if (candidates.length === 0) return undefined;
  // Spread deals over all stores (a brand store has few products), the big three a bit more.
  const store = rng.weighted(
    candidates,
    candidates.map(
      (c) =>
        ((GENERAL_STORES as readonly string[]).includes(c.seed.title) ? 2 : 1) /
        Math.pow(1 + (dealsPerStore.get(c.id) ?? 0), 1.5),
    ),
  );
  return { category, product, store, isCoupon };
}

/** The post of an offer: its description's details, link, badge, deal category, image and dates. */
function offerPost(
  rng: Random,
  context: PostContext,
  { category, product, store, isCoupon }: OfferTarget,
  offer: Offer,
): DraftPost {
  const seed = category.seed;
  const agoMin = postAgo(rng);
  const { title, description, priceCents, listCents, discount, code } = offer;
  description.list([
    ...rng.sample(seed.highlights, rng.int(2, 3)),
    ...(isCoupon ? rng.sample(COUPON_TERMS, 2) : [rng.pick(GENERIC_BULLETS)]),
  ]);
  if (!product) {
    const favorites = rng.sample(seed.products, 2).map((p) => p.name);
    description.paragraph(`Our favorites right now: ${favorites.join(" and ")}.`);
  }
  if (rng.chance(0.55)) {
    description.paragraph(rng.pick(DEAL_TIPS).replace("{store}", store.seed.title));
  }
  const link = product
    ? productLink(store.seed, slugOf(product.name), rng)
    : `https://www.${store.seed.domain}/deals/${category.slug}`;
  const badge =
    offer.badge ||
    rng.weighted(
      ["", "Hot Deal", "Best Price", "Free Shipping", "Teacher Favorite"],
      [12, discount >= 40 ? 6 : 2, 2, 1, seed.school ? 3 : 1],
    );
  const forumCategory = isCoupon
    ? "Coupons"
    : seed.school && rng.chance(0.45)
      ? "Back to School"
      : "Hot Deals";
  const noEnd = rng.chance(isCoupon ? 0.05 : 0.22);
  const imageFile = dealImageFile(`${title}\n${store.slug}`);
  const image: DealImageSpec = {
    headline: offer.headline,
    color: seed.color,
    kind: isCoupon ? "coupon" : "deal",
    discount: offer.showDiscount ? discount : null,
    couponCode: code,
    ...(priceCents !== null ? { price: money(priceCents) } : {}),
    ...(listCents !== null ? { listPrice: money(listCents) } : {}),
  };
  context.images.push({ file: imageFile, svg: () => dealSvg(image) });
  return {
    postType: "d",
    kind: isCoupon ? "coupon" : "deal",
    userId: pickAuthor(rng, context.users, agoMin),
    forumCategoryId: context.forumCategoryId(forumCategory),
    storeId: store.id,
    categoryId: category.id,
    title,
    description: description.html,
    descriptionText: description.text,
    imageFile,
    price: priceCents === null ? null : priceCents / 100,
    listPrice: listCents === null ? null : listCents / 100,
    discount,
    dealBadge: badge,
    link,
    linkKey: linkKey(link),
    couponCode: code,
    expiresAfterMin: noEnd ? null : rng.int(3 * MINUTES_PER_DAY, 150 * MINUTES_PER_DAY),
    views: rng.skewed(12, 5000, 2.4),
    agoMin,
  };
}

/** The first `count` educator discussions; the first (the forum's welcome) is the oldest post. */
function planDiscussions(rng: Random, context: PostContext, count: number): DraftPost[] {
  const discussionImage = new Map<string, string>();
  for (const [i, title] of DISCUSSION_FORUM_CATEGORIES.entries()) {
    const file = postImageFile(`discussion-${slugOf(title)}`);
    const color = ["#2E86AB", "#2F5D50", "#E4572E", "#6A4C93"][i]!;
    discussionImage.set(title, file);
    context.images.push({ file, svg: () => discussionSvg(title, color) });
  }
  return DISCUSSIONS.slice(0, count).map((topic, i): DraftPost => {
    const agoMin = i === 0 ? POST_WINDOW_DAYS * MINUTES_PER_DAY : postAgo(rng);
    const description = new Description().paragraph(topic.body);
    if (topic.points) description.list(topic.points);
    if (i > 0) description.paragraph(rng.pick(DISCUSSION_CLOSINGS));
    return {
      postType: "g",
      kind: "discussion",
      userId: i === 0 ? 1 : pickAuthor(rng, context.users, agoMin),
      forumCategoryId: context.forumCategoryId(topic.category),
      storeId: null,
      categoryId: null,
      title: topic.title,
      description: description.html,
      descriptionText: description.text,
      imageFile: discussionImage.get(topic.category)!,
      price: null,
      listPrice: null,
      discount: null,
      dealBadge: "",
      link: "",
      linkKey: "",
      couponCode: "",
      expiresAfterMin: null,
      views: rng.skewed(20, 2500, 2),
      agoMin,
    };
  });
}

// The newest deals ----------------------------------------------------------------------------
// The first page of the new-deals list always shows a coupon with a code and a deal that has
// ended, so visitors (and the browser tests) meet both there at every scale.

/** How far down the new-deals list the guaranteed coupon may sit. */
const NEWEST_COUPON_RANK = 3;

/** Deals newest first, as the new-deals list orders them (equal times: the later-made first). */
function newestDeals<T extends DraftPost>(posts: readonly T[]): T[] {
  return posts
    .map((post, order) => ({ post, order }))
    .filter(({ post }) => post.postType === "d")
    .sort((a, b) => a.post.agoMin - b.post.agoMin || b.order - a.order)
    .map(({ post }) => post);
}

/** Moves the newest coupon with a code up among the NEWEST_COUPON_RANK newest deals. */
function keepCouponAmongNewest(drafts: DraftPost[]): void {
  const deals = newestDeals(drafts);
  const coupon = deals.find((d) => d.kind === "coupon" && d.couponCode !== "");
  if (!coupon) throw new Error("Demo data: no coupon with a code");
  // A newer date never precedes its author's joining; comments and likes are dated after it.
  coupon.agoMin = Math.min(coupon.agoMin, deals[NEWEST_COUPON_RANK - 1]!.agoMin);
}

/**
 * The second-newest plain deal that is not featured (the newest stays live) was a short sale: it
 * ended halfway between its posting and now.
 */
function endOneOfNewestDeals(posts: PlanPost[]): void {
  const deal = newestDeals(posts).filter(
    (p) => p.kind === "deal" && p.price !== 0 && !p.isFeatured,
  )[1];
  if (!deal) throw new Error("Demo data: too few deals to end one");
  deal.expiresAfterMin = Math.floor(deal.agoMin / 2);
}

// Ids, featured posts -------------------------------------------------------------------------

/** Ids in creation order, and reproducible unique_ids. */
function numberPosts(rng: Random, drafts: readonly DraftPost[]): PlanPost[] {
  const usedIds = new Set<string>();
  return drafts
    .map((draft, order) => ({ draft, order }))
    .sort((a, b) => b.draft.agoMin - a.draft.agoMin || a.order - b.order)
    .map(({ draft }, i) => {
      let uniqueId = rng.uniqueId();
      while (!pushUnique(usedIds, uniqueId)) uniqueId = rng.uniqueId();
      return { ...draft, id: i + 1, uniqueId, slug: slugOf(draft.title), isFeatured: false };
    });
}

/**
 * Features `dealCount` live deals of the last month, the forum's welcome post and two other
 * discussions. Returns the welcome post.
 */
function featurePosts(rng: Random, posts: PlanPost[], dealCount: number): PlanPost {
  const liveDeals = posts.filter(
    (p) =>
      p.postType === "d" &&
      p.agoMin < 30 * MINUTES_PER_DAY &&
      (p.expiresAfterMin === null || p.expiresAfterMin > p.agoMin),
  );
  for (const p of rng.sample(liveDeals, dealCount)) p.isFeatured = true;
  const discussions = posts.filter((p) => p.postType === "g");
  const welcome = discussions.find((p) => p.title === DISCUSSIONS[0]!.title)!;
  welcome.isFeatured = true;
  welcome.views += 3000;
  for (const p of rng.sample(
    discussions.filter((p) => p !== welcome),
    2,
  ))
    p.isFeatured = true;
  for (const p of posts.filter((p) => p.isFeatured)) p.views += rng.int(500, 3000);
  return welcome;
}

// Comments, replies and likes -----------------------------------------------------------------

interface CommentDraft extends Omit<PlanComment, "id"> {
  key: number;
  parentKey: number | null;
}

/** A moment after `agoMin`, mostly within two weeks of it. */
function laterThan(agoMin: number, rng: Random): number {
  return Math.max(Math.floor(agoMin * 0.02), agoMin - rng.skewed(10, 14 * MINUTES_PER_DAY, 3));
}

function planCommentsAndLikes(
  rng: Random,
  posts: readonly PlanPost[],
  users: readonly PlanUser[],
): { comments: PlanComment[]; likes: PlanLike[] } {
  const drafts: CommentDraft[] = [];
  const likes: PlanLike[] = [];
  for (const post of posts) {
    const isTalk = post.postType === "g";
    if (rng.chance(isTalk ? 0.92 : 0.62))
      drafts.push(...planThreads(rng, post, users, drafts.length));
    const fans = membersAt(users, post.agoMin).filter((u) => u.id !== post.userId);
    const likeCount = rng.skewed(0, Math.min(fans.length, post.isFeatured ? 30 : 22), 1.7);
    for (const fan of rng.sample(fans, likeCount)) {
      likes.push({
        postId: post.id,
        userId: fan.id,
        reaction: rng.chance(isTalk ? 0.05 : 0.1) ? "unlike" : "like",
        agoMin: laterThan(post.agoMin, rng),
      });
    }
  }
  return { comments: numberComments(drafts), likes };
}

/** A post's top-level comments, some with one or two replies; keys count on from `firstKey`. */
function planThreads(
  rng: Random,
  post: PlanPost,
  users: readonly PlanUser[],
  firstKey: number,
): CommentDraft[] {
  const isTalk = post.postType === "g";
  const drafts: CommentDraft[] = [];
  let key = firstKey;
  const topLevel = rng.skewed(1, isTalk ? 8 : 5, 1.6);
  for (let c = 0; c < topLevel; c++) {
    const agoMin = laterThan(post.agoMin, rng);
    const author = rng.pick(membersAt(users, agoMin));
    const parentKey = key++;
    drafts.push({
      key: parentKey,
      parentKey: null,
      postId: post.id,
      userId: author.id,
      parentId: null,
      body: `<p>${html(rng.pick(isTalk ? DISCUSSION_COMMENTS : DEAL_COMMENTS))}</p>`,
      agoMin,
    });
    if (!rng.chance(0.4)) continue;
    let replyAgo = agoMin;
    for (let r = rng.int(1, 2); r > 0; r--) {
      replyAgo = laterThan(replyAgo, rng);
      const others = membersAt(users, replyAgo).filter((u) => u.id !== author.id);
      if (others.length === 0) break;
      drafts.push({
        key: key++,
        parentKey,
        postId: post.id,
        userId: rng.pick(others).id,
        parentId: null,
        body: `<p>${html(rng.pick(REPLIES))}</p>`,
        agoMin: replyAgo,
      });
    }
  }
  return drafts;
}

/** Ids in time order, so a reply always has a larger id than the comment it answers. */
function numberComments(drafts: readonly CommentDraft[]): PlanComment[] {
  const commentIdByKey = new Map<number, number>();
  return drafts
    .map((c, order) => ({ c, order }))
    .sort((a, b) => b.c.agoMin - a.c.agoMin || a.order - b.order)
    .map(({ c }, i) => {
      commentIdByKey.set(c.key, i + 1);
      return { ...c, id: i + 1 };
    })
    .map(({ key: _key, parentKey, ...c }) => ({
      ...c,
      parentId: parentKey === null ? null : commentIdByKey.get(parentKey)!,
    }));
}
