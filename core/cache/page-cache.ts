import { createHash } from "node:crypto";

/**
 * Rendered HTML of public pages, kept in the process for anonymous visitors
 * (docs/decisions/0049-page-cache.md). An entry is the page's bytes split at its CSP nonce, so a hit
 * is served with a fresh nonce spliced in and no nonce is ever sent twice.
 */
/** Who a stored page is served to. */
export interface PageVisitor {
  ip: string;
  userAgent: string | undefined;
}

export type HitWork = (visitor: PageVisitor) => Promise<unknown>;

export interface PageEntry {
  /** The body between the nonce's occurrences: parts.length - 1 nonces go between them. */
  parts: Buffer[];
  etag: string;
  contentType: string;
  /** Work the page's render did for its visitor (a view counted), done again for each hit's. */
  onHit: readonly HitWork[];
  /** Bytes held (the parts). */
  size: number;
  storedAt: number;
}

/**
 * A weak ETag over a body with its CSP nonce blanked out: the nonce is new on every response, the
 * content is not, so an unchanged page keeps its ETag and revalidates to a 304.
 */
export function etagOfParts(parts: readonly Buffer[]): string {
  const hash = createHash("sha1");
  for (const part of parts) hash.update(part);
  return `W/"${hash.digest("base64url").slice(0, 27)}"`;
}

/** The body cut at every occurrence of `nonce` (none: one part, the whole body). */
export function splitAtNonce(body: Buffer, nonce: string): Buffer[] {
  if (!nonce) return [body];
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(nonce, 0, "latin1"); at !== -1; at = body.indexOf(nonce, from)) {
    parts.push(body.subarray(from, at));
    from = at + nonce.length;
  }
  parts.push(from === 0 ? body : body.subarray(from));
  return parts;
}

/** The stored page with `nonce` where the rendered one was. */
export function bodyWithNonce(entry: PageEntry, nonce: string): Buffer {
  if (entry.parts.length === 1) return entry.parts[0]!;
  const joint = Buffer.from(nonce, "latin1");
  const pieces: Buffer[] = [];
  entry.parts.forEach((part, index) => {
    if (index > 0) pieces.push(joint);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

export interface PageCacheOptions {
  maxEntries: number;
  maxBytes: number;
  /** An entry older than this is a miss: relative times and trending move without a change. */
  maxAgeMs: number;
  now?: () => number;
}

/**
 * A least-recently-used map of pages, bounded by entries and bytes, with a maximum age. `clear`
 * also moves the generation on, so a render that began before a change is not stored after it.
 */
export class PageCache {
  readonly #entries = new Map<string, PageEntry>();
  readonly #options: PageCacheOptions;
  readonly #now: () => number;
  #bytes = 0;
  #generation = 0;

  constructor(options: PageCacheOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Changes each time the cache is dropped: take it before rendering, give it back to `set`. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): PageEntry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (this.#now() - entry.storedAt >= this.#options.maxAgeMs) {
      this.#bytes -= entry.size;
      return undefined;
    }
    this.#entries.set(key, entry); // most recently used last
    return entry;
  }

  /**
   * Keeps a rendered page, unless the cache was dropped since `generation` was taken (the page may
   * show data from before the change) or the page alone is over the byte bound.
   */
  set(
    key: string,
    page: { body: Buffer; nonce: string; contentType: string; onHit?: readonly HitWork[] },
    generation: number,
  ): PageEntry | undefined {
    if (generation !== this.#generation) return undefined;
    if (page.body.length > this.#options.maxBytes) return undefined;
    const parts = splitAtNonce(page.body, page.nonce);
    const entry: PageEntry = {
      parts,
      etag: etagOfParts(parts),
      contentType: page.contentType,
      onHit: page.onHit ?? [],
      size: page.body.length - (parts.length - 1) * page.nonce.length,
      storedAt: this.#now(),
    };
    this.#remove(key);
    this.#entries.set(key, entry);
    this.#bytes += entry.size;
    for (const [oldest, old] of this.#entries) {
      if (this.#entries.size <= this.#options.maxEntries && this.#bytes <= this.#options.maxBytes) {
        break;
      }
      this.#entries.delete(oldest);
      this.#bytes -= old.size;
    }
    return entry;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
    this.#generation += 1;
  }

  #remove(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.size;
  }
}
