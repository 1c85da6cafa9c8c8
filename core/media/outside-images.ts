import type { DbOrTx } from "../../db/index.ts";
import { MAX_UPLOAD_BYTES } from "../constants.ts";
import { imageSources } from "../content/sanitize.ts";
import type { Deps } from "../deps.ts";
import { ValidationError } from "../errors.ts";
import {
  fetchBody,
  LinkFailed,
  LinkRefused,
  type LinkCheckSettings,
} from "../posts/freshness/link-check.ts";
import { insertMediaRecord } from "./image-records.ts";
import {
  removeStoredImages,
  storeUploadedImage,
  type MediaFolder,
  type StoredImage,
} from "./images.ts";
import { isMediaPath, isMediaUrl, MEDIA_URL_PREFIX } from "./media-path.ts";

/**
 * Images in user HTML are the site's own stored media (docs/decisions/0074-images-in-user-html.md).
 * When a post, discussion or page is written, each outside https image in its HTML is fetched once
 * through the link check's guarded fetch (core/posts/freshness/link-check.ts: no private, loopback or
 * link-local address, each redirect checked, the socket pinned to the checked address), checked by
 * its bytes, re-encoded and stored as an upload is (core/media/images.ts), and its src becomes the
 * stored copy. An image that cannot be fetched or is not an image is dropped; so is any other src
 * that is not the site's media (/go/…, any other page of the site, http:). The post is saved all the
 * same. This runs before the write's transaction, never inside it. A single picture link (a deal's
 * image link, a sign-in provider's picture, one stored before: core/media/image-link-job.ts) is
 * copied the same way (the `picture` option, copyImageLink).
 */

export const OUTSIDE_IMAGE_LIMITS = {
  /** Outside images copied for one write; any further ones are dropped. */
  maxImages: 10,
  /** For all of one write's copies together: a post of slow images cannot hold its request. */
  budgetMs: 15_000,
  /** Copies fetched at once. */
  concurrency: 4,
};

export type OutsideImageLimits = typeof OUTSIDE_IMAGE_LIMITS;

/** Each request's limits: the link check's, with an upload's size. */
const FETCH_SETTINGS: Omit<LinkCheckSettings, "allowLoopback"> = {
  connectTimeoutMs: 5_000,
  answerTimeoutMs: 10_000,
  maxRedirects: 5,
  maxBodyBytes: MAX_UPLOAD_BYTES,
};

export const IMAGE_COPY_USER_AGENT =
  "ChalkboardDealsImageCopy/1.0 (+copies an image a member put in a post; one request per image)";

const IMAGE_ACCEPT = "image/webp,image/png,image/jpeg,image/gif;q=0.9,image/*;q=0.5";

export interface CopiedImages {
  /** src as written → its stored copy's URL: what sanitizeRichHtml is given as `images`. */
  sources: Map<string, string>;
  /** The copies stored for this write: recorded in its transaction, removed if it fails. */
  stored: StoredImage[];
  /** Sources dropped, and why (for the log). */
  dropped: { src: string; reason: string }[];
  /** The picture link's stored copy (/media/…), or null when none was given or it was dropped. */
  picture: string | null;
}

type CopyDeps = Pick<Deps, "media"> & {
  config: Pick<Deps["config"], "publicUrl" | "mediaBaseUrl" | "linkCheckAllowLoopback">;
  log: Pick<Deps["log"], "info" | "warn">;
};

/**
 * A src that names the site's media in full (PUBLIC_URL's origin + /media/…, or MEDIA_BASE_URL +
 * /…), as the stored form /media/<path>; null for any other src.
 */
function ownMediaUrl(src: URL, config: CopyDeps["config"]): string | null {
  const base = config.mediaBaseUrl && new URL(config.mediaBaseUrl).href.replace(/\/+$/, "");
  if (base && src.href.startsWith(`${base}/`)) {
    const relative = src.href.slice(base.length + 1);
    return isMediaPath(relative) ? `${MEDIA_URL_PREFIX}${relative}` : null;
  }
  if (src.origin === new URL(config.publicUrl).origin && !src.search && !src.hash) {
    return isMediaUrl(src.pathname) ? src.pathname : null;
  }
  return null;
}

/** The site's own origins: a src there that is not media is one of its pages (/go/…), never fetched. */
function isOwnOrigin(src: URL, config: CopyDeps["config"]): boolean {
  const origins = [config.publicUrl, config.mediaBaseUrl].filter(Boolean) as string[];
  return origins.some((origin) => new URL(origin).origin === src.origin);
}

/** An absolute https: src as a URL; null for anything else (relative, another scheme). */
function outsideHttpsUrl(src: string): URL | null {
  if (!/^https:\/\//i.test(src)) return null;
  try {
    return new URL(src);
  } catch {
    return null;
  }
}

/** Why a copy failed, in words for the log; an unexpected error is rethrown. */
function failureReason(error: unknown): string {
  if (error instanceof LinkRefused) return `not fetched: ${error.message}`;
  if (error instanceof LinkFailed) return error.message;
  if (error instanceof ValidationError) return Object.values(error.errors)[0] ?? error.message;
  throw error;
}

/** How one src is handled: already the site's media, to be fetched, or dropped (and why). */
type Plan = { own: string } | { fetch: string } | { drop: string };

function planFor(src: string, config: CopyDeps["config"]): Plan {
  if (isMediaUrl(src)) return { own: src };
  const url = outsideHttpsUrl(src);
  const own = url && ownMediaUrl(url, config);
  if (own) return { own };
  if (!url) return { drop: "not an outside https image" };
  if (isOwnOrigin(url, config)) return { drop: "a page of this site, not its media" };
  return { fetch: src };
}

/**
 * Copies the outside images of `html` into the media storage under `folder`, and with `picture`
 * one image link besides (a deal's picture link, docs/decisions/0074): copied first, within the
 * same bounds, stored with responsive variants when `pictureVariants` is set, its URL in
 * `copied.picture`. Never throws for an image (it is dropped); throws only when the storage itself
 * fails, having removed what it stored.
 */
export async function copyOutsideImages(
  deps: CopyDeps,
  html: string,
  folder: MediaFolder,
  options: {
    limits?: Partial<OutsideImageLimits>;
    signal?: AbortSignal;
    picture?: string | null;
    pictureVariants?: boolean;
    /** Bounds the picture's stored size (an avatar's 512 px). */
    pictureMaxSize?: number;
  } = {},
): Promise<CopiedImages> {
  const limits = { ...OUTSIDE_IMAGE_LIMITS, ...options.limits };
  const copied: CopiedImages = { sources: new Map(), stored: [], dropped: [], picture: null };
  const toFetch: { src: string; picture: boolean }[] = [];
  if (options.picture) {
    const plan = planFor(options.picture, deps.config);
    if ("own" in plan) copied.picture = plan.own;
    else if ("drop" in plan) copied.dropped.push({ src: options.picture, reason: plan.drop });
    else toFetch.push({ src: plan.fetch, picture: true });
  }
  for (const src of imageSources(html)) {
    if (isMediaUrl(src)) continue;
    const plan = planFor(src, deps.config);
    if ("own" in plan) copied.sources.set(src, plan.own);
    else if ("drop" in plan) copied.dropped.push({ src, reason: plan.drop });
    else if (toFetch.filter((f) => !f.picture).length >= limits.maxImages) {
      copied.dropped.push({ src, reason: `more than ${limits.maxImages} images to copy` });
    } else toFetch.push({ src, picture: false });
  }
  if (!toFetch.length) return copied;

  const deadline = AbortSignal.timeout(limits.budgetMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const settings = { ...FETCH_SETTINGS, allowLoopback: deps.config.linkCheckAllowLoopback };
  let failure: unknown = null;
  const outOfTime = `out of time (${limits.budgetMs / 1000} s for the post's images)`;
  const copyOne = async ({ src, picture }: { src: string; picture: boolean }) => {
    if (signal.aborted) {
      copied.dropped.push({ src, reason: deadline.aborted ? outOfTime : "stopped" });
      return;
    }
    try {
      const { body } = await fetchBody(src, {
        userAgent: IMAGE_COPY_USER_AGENT,
        accept: IMAGE_ACCEPT,
        settings,
        signal,
      });
      const stored = await storeUploadedImage(
        deps.media,
        folder,
        body,
        picture ? { variants: options.pictureVariants, maxSize: options.pictureMaxSize } : {},
      );
      copied.stored.push(stored);
      if (picture) copied.picture = stored.url;
      else copied.sources.set(src, stored.url);
    } catch (error) {
      try {
        const stopped = deadline.aborted && error instanceof LinkFailed;
        copied.dropped.push({ src, reason: stopped ? outOfTime : failureReason(error) });
      } catch (unexpected) {
        failure ??= unexpected;
      }
    }
  };
  const queue = [...toFetch];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) await copyOne(next);
  };
  await Promise.all(Array.from({ length: Math.max(1, limits.concurrency) }, worker));
  if (failure) {
    await removeStoredImages(deps, copied.stored);
    throw failure;
  }
  return copied;
}

/** Records the copies as uploads of `userId` (core/media/image-records.ts), in the write's transaction. */
export async function recordCopiedImages(db: DbOrTx, userId: number, copied: CopiedImages) {
  for (const image of copied.stored) await insertMediaRecord(db, userId, image);
}

type CopyOptions = Omit<NonNullable<Parameters<typeof copyOutsideImages>[3]>, "signal">;

/**
 * Copies the outside images of `html` (copyOutsideImages), and the picture link when one is given,
 * then runs `write` with them; when `write` fails, the copies are removed again, so a refused write
 * leaves no file behind. Dropped images are logged: the writer's answer is the spec's, which has no
 * place for them.
 */
export async function withCopiedImages<T>(
  deps: CopyDeps,
  html: string,
  folder: MediaFolder,
  write: (copied: CopiedImages) => Promise<T>,
  options: CopyOptions = {},
): Promise<T> {
  const copied = await copyOutsideImages(deps, html, folder, options);
  for (const { src, reason } of copied.dropped) {
    const what = src === options.picture ? "A picture link" : "An image in user HTML";
    deps.log.info(`${what} was dropped (${src.slice(0, 200)}): ${reason}.`);
  }
  try {
    return await write(copied);
  } catch (error) {
    await removeStoredImages(deps, copied.stored);
    throw error;
  }
}

export interface CopiedImageLink {
  /** The copy's /media/ URL; null when the image was dropped. */
  url: string | null;
  /** The file stored for it (none when dropped, or when the link named the site's media already). */
  stored: StoredImage | null;
  /** Why it was dropped, for the log. */
  reason: string | null;
}

/**
 * Copies one image link (a post's picture stored before its links were copied, a member's picture
 * from a sign-in provider) the way copyOutsideImages copies a post's: the same guarded fetch, bounds
 * and checks. Never throws for the image; throws only when the storage fails.
 */
export async function copyImageLink(
  deps: CopyDeps,
  src: string,
  folder: MediaFolder,
  options: {
    variants?: boolean;
    maxSize?: number;
    limits?: Partial<OutsideImageLimits>;
    signal?: AbortSignal;
  } = {},
): Promise<CopiedImageLink> {
  const copied = await copyOutsideImages(deps, "", folder, {
    picture: src,
    pictureVariants: options.variants,
    pictureMaxSize: options.maxSize,
    limits: options.limits,
    signal: options.signal,
  });
  return {
    url: copied.picture,
    stored: copied.stored[0] ?? null,
    reason: copied.dropped[0]?.reason ?? null,
  };
}
