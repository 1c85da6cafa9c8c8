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
} from "../freshness/link-check.ts";
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
 * through the link check's guarded fetch (core/freshness/link-check.ts: no private, loopback or
 * link-local address, each redirect checked, the socket pinned to the checked address), checked by
 * its bytes, re-encoded and stored as an upload is (core/media/images.ts), and its src becomes the
 * stored copy. An image that cannot be fetched or is not an image is dropped; so is any other src
 * that is not the site's media (/go/…, any other page of the site, http:). The post is saved all the
 * same. This runs before the write's transaction, never inside it.
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
}

type CopyDeps = Pick<Deps, "config" | "media" | "log">;

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

/**
 * Copies the outside images of `html` into the media storage under `folder`. Never throws for an
 * image (it is dropped); throws only when the storage itself fails, having removed what it stored.
 */
export async function copyOutsideImages(
  deps: CopyDeps,
  html: string,
  folder: MediaFolder,
  options: { limits?: Partial<OutsideImageLimits>; signal?: AbortSignal } = {},
): Promise<CopiedImages> {
  const limits = { ...OUTSIDE_IMAGE_LIMITS, ...options.limits };
  const copied: CopiedImages = { sources: new Map(), stored: [], dropped: [] };
  const toFetch: string[] = [];
  for (const src of imageSources(html)) {
    if (isMediaUrl(src)) continue;
    const url = outsideHttpsUrl(src);
    const own = url && ownMediaUrl(url, deps.config);
    if (own) copied.sources.set(src, own);
    else if (!url) copied.dropped.push({ src, reason: "not an outside https image" });
    else if (isOwnOrigin(url, deps.config)) {
      copied.dropped.push({ src, reason: "a page of this site, not its media" });
    } else if (toFetch.length >= limits.maxImages) {
      copied.dropped.push({ src, reason: `more than ${limits.maxImages} images to copy` });
    } else toFetch.push(src);
  }
  if (!toFetch.length) return copied;

  const deadline = AbortSignal.timeout(limits.budgetMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const settings = { ...FETCH_SETTINGS, allowLoopback: deps.config.linkCheckAllowLoopback };
  let failure: unknown = null;
  const outOfTime = `out of time (${limits.budgetMs / 1000} s for the post's images)`;
  const copyOne = async (src: string) => {
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
      const stored = await storeUploadedImage(deps.media, folder, body);
      copied.stored.push(stored);
      copied.sources.set(src, stored.url);
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
    for (let src = queue.shift(); src !== undefined; src = queue.shift()) await copyOne(src);
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

/**
 * Copies the outside images of `html` (copyOutsideImages), then runs `write` with them; when
 * `write` fails, the copies are removed again, so a refused write leaves no file behind. Dropped
 * images are logged: the writer's answer is the spec's, which has no place for them.
 */
export async function withCopiedImages<T>(
  deps: CopyDeps,
  html: string,
  folder: MediaFolder,
  write: (copied: CopiedImages) => Promise<T>,
  options: { limits?: Partial<OutsideImageLimits> } = {},
): Promise<T> {
  const copied = await copyOutsideImages(deps, html, folder, options);
  for (const { src, reason } of copied.dropped) {
    deps.log.info(`An image in user HTML was dropped (${src.slice(0, 200)}): ${reason}.`);
  }
  try {
    return await write(copied);
  } catch (error) {
    await removeStoredImages(deps, copied.stored);
    throw error;
  }
}
