import { createHash } from "node:crypto";

/**
 * Rendered HTML of public pages, kept in the process for anonymous visitors
 * (docs/decisions/0049-page-cache.md). An entry keeps where the page's CSP nonce stands, so a hit
 * is served with a fresh nonce written in and no nonce is ever sent twice.
 */
/** Who a stored page is served to. */
export interface PageVisitor {
  ip: string;
  userAgent: string | undefined;
}

/**
 * What a stored page does for each visitor it is served to, before it is sent: quick, in memory
 * (a view noted to be written later), as it holds the answer.
 */
export type HitWork = (visitor: PageVisitor) => void;

export interface PageEntry {
  /** The page as rendered, its nonce included. */
  body: Buffer;
  /** Where the render's nonce stands in `body`, and its length: a hit writes a fresh one there. */
  nonceAt: readonly number[];
  nonceLength: number;
  etag: string;
  contentType: string;
  /** Work the page's render did for its visitor (a view counted), done again for each hit's. */
  onHit: readonly HitWork[];
  /** Bytes held: the body and its spare copies. */
  size: number;
  storedAt: number;
  /**
   * Copies of the body that hits sent and gave back, reused by later hits: a hit then writes only
   * the nonce's few bytes instead of allocating and copying the whole page.
   */
  spares: Buffer[];
  /** Still in the cache: a copy given back after its entry left the cache is let go. */
  live: boolean;
}

/** A hit's body, and the call that gives it back for reuse once it has been sent. */
export interface ServedPage {
  body: Buffer;
  sent: () => void;
}

/** Copies of one page kept for reuse at most: as many as hits of it are sent at once. */
const MAX_SPARES = 16;

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

/** Where `nonce` stands in `body` (none: an empty list). */
function offsetsOf(body: Buffer, nonce: string): number[] {
  const offsets: number[] = [];
  if (!nonce) return offsets;
  for (let at = body.indexOf(nonce, 0, "latin1"); at !== -1;) {
    offsets.push(at);
    at = body.indexOf(nonce, at + nonce.length, "latin1");
  }
  return offsets;
}

/** The stored page with `nonce` where the rendered one was, in a new buffer. */
export function bodyWithNonce(entry: PageEntry, nonce: string): Buffer {
  if (entry.nonceAt.length === 0) return entry.body;
  const pieces: Buffer[] = [];
  const joint = Buffer.from(nonce, "latin1");
  let from = 0;
  for (const at of entry.nonceAt) {
    pieces.push(entry.body.subarray(from, at), joint);
    from = at + entry.nonceLength;
  }
  pieces.push(entry.body.subarray(from));
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
      this.#let(entry);
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
    const entry: PageEntry = {
      body: page.body,
      nonceAt: offsetsOf(page.body, page.nonce),
      nonceLength: Buffer.byteLength(page.nonce, "latin1"),
      etag: etagOfParts(splitAtNonce(page.body, page.nonce)),
      contentType: page.contentType,
      onHit: page.onHit ?? [],
      size: page.body.length,
      storedAt: this.#now(),
      spares: [],
      live: true,
    };
    this.#remove(key);
    this.#entries.set(key, entry);
    this.#bytes += entry.size;
    for (const [oldest, old] of this.#entries) {
      if (this.#entries.size <= this.#options.maxEntries && this.#bytes <= this.#options.maxBytes) {
        break;
      }
      this.#entries.delete(oldest);
      this.#let(old);
    }
    return entry;
  }

  /**
   * A stored page with a fresh nonce where the render's was. Call `sent` once the body has been
   * written out whole (not on an aborted response): its buffer is then reused by a later hit.
   */
  serve(entry: PageEntry, nonce: string): ServedPage {
    const nothing = () => {};
    if (entry.nonceAt.length === 0) return { body: entry.body, sent: nothing };
    if (Buffer.byteLength(nonce, "latin1") !== entry.nonceLength) {
      return { body: bodyWithNonce(entry, nonce), sent: nothing };
    }
    let body = entry.spares.pop();
    if (body) this.#hold(entry, -body.length);
    else body = Buffer.from(entry.body);
    for (const at of entry.nonceAt) body.write(nonce, at, "latin1");
    const copy = body;
    return { body: copy, sent: () => this.#giveBack(entry, copy) };
  }

  clear(): void {
    for (const entry of this.#entries.values()) this.#letGo(entry);
    this.#entries.clear();
    this.#bytes = 0;
    this.#generation += 1;
  }

  #giveBack(entry: PageEntry, body: Buffer) {
    if (!entry.live || entry.spares.length >= MAX_SPARES) return;
    if (this.#bytes + body.length > this.#options.maxBytes) return;
    entry.spares.push(body);
    this.#hold(entry, body.length);
  }

  #hold(entry: PageEntry, bytes: number) {
    entry.size += bytes;
    this.#bytes += bytes;
  }

  /** An entry that has left the map: its bytes are no longer held. */
  #let(entry: PageEntry) {
    this.#bytes -= entry.size;
    this.#letGo(entry);
  }

  #letGo(entry: PageEntry) {
    entry.live = false;
    entry.spares = [];
  }

  #remove(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#let(entry);
  }
}
