import { createHash } from "node:crypto";
import zlib from "node:zlib";

/**
 * Rendered HTML of public pages, kept in the process for anonymous visitors
 * (docs/decisions/0049-page-cache.md). A stored page is served as it was rendered, the same bytes
 * to every visitor, so each encoding of it is compressed once; its Content-Security-Policy names
 * the hashes of its own scripts instead of a nonce (docs/decisions/0067-cached-pages-by-hash.md).
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

/** The content codings a stored page is kept in besides its plain bytes. */
export type PageEncoding = "br" | "gzip";

export interface PageEntry {
  /** The page as rendered, its render's nonce included (a nonce no policy of a hit names). */
  body: Buffer;
  /**
   * CSP hash sources (`'sha256-…'`) of the inline scripts that carry the render's nonce: the
   * page's own scripts, and no other (content with a script of its own in it has no nonce).
   */
  scriptHashes: readonly string[];
  etag: string;
  contentType: string;
  /** Work the page's render did for its visitor (a view counted), done again for each hit's. */
  onHit: readonly HitWork[];
  /** The page compressed, each encoding made at its first hit that asks for it. */
  encoded: Partial<Record<PageEncoding, Buffer>>;
  /** Bytes held: the body and its encodings. */
  size: number;
  storedAt: number;
  /** Still in the cache: an encoding made after the entry left it is not kept. */
  live: boolean;
}

/**
 * A weak ETag over a body with its CSP nonce blanked out: the nonce is new on every render, the
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

const SCRIPT_OPEN = Buffer.from("<script");
const SCRIPT_CLOSE = Buffer.from("</script>");

/**
 * The CSP hash sources of the inline scripts in `body` whose opening tag carries
 * `nonce="<nonce>"`: what React Router, React and the entry write with the render's nonce. A
 * script without it (one that got into content past the sanitiser) is not hashed and stays
 * blocked, as it was by the nonce. The hash is over the script's text as the browser reads it:
 * the bytes between the tags, with the line breaks HTML's input normalises.
 */
export function inlineScriptHashes(body: Buffer, nonce: string): string[] {
  if (!nonce) return [];
  const hashes = new Set<string>();
  const withNonce = ` nonce="${nonce}"`;
  for (let at = body.indexOf(SCRIPT_OPEN); at !== -1; at = body.indexOf(SCRIPT_OPEN, at + 1)) {
    const tagEnd = body.indexOf(">", at);
    if (tagEnd === -1) break;
    const tag = body.toString("utf8", at, tagEnd);
    if (!tag.includes(withNonce) || /\ssrc=/.test(tag)) continue;
    const close = body.indexOf(SCRIPT_CLOSE, tagEnd);
    if (close === -1) break;
    const text = body.toString("utf8", tagEnd + 1, close).replace(/\r\n?/g, "\n");
    hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
    at = close;
  }
  return [...hashes];
}

/**
 * A stored page in a content coding: brotli at quality 5 in a 256 kB window (a little smaller
 * than the quality 4 of answers compressed on the way out, made once), or gzip at level 6.
 */
export function encodePage(body: Buffer, encoding: PageEncoding): Buffer {
  if (encoding === "gzip") return zlib.gzipSync(body);
  return zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
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
      scriptHashes: inlineScriptHashes(page.body, page.nonce),
      etag: etagOfParts(splitAtNonce(page.body, page.nonce)),
      contentType: page.contentType,
      onHit: page.onHit ?? [],
      encoded: {},
      size: page.body.length,
      storedAt: this.#now(),
      live: true,
    };
    this.#remove(key);
    this.#entries.set(key, entry);
    this.#bytes += entry.size;
    this.#trim();
    return entry;
  }

  /**
   * The stored page in `encoding`, compressed at the first hit that asks for it and kept with the
   * entry while it is in the cache (its bytes count towards the bound).
   */
  encoded(entry: PageEntry, encoding: PageEncoding): Buffer {
    const kept = entry.encoded[encoding];
    if (kept) return kept;
    const bytes = encodePage(entry.body, encoding);
    if (entry.live) {
      entry.encoded[encoding] = bytes;
      entry.size += bytes.length;
      this.#bytes += bytes.length;
      this.#trim();
    }
    return bytes;
  }

  clear(): void {
    for (const entry of this.#entries.values()) entry.live = false;
    this.#entries.clear();
    this.#bytes = 0;
    this.#generation += 1;
  }

  /** Lets the least recently used entries go until the cache is within its bounds. */
  #trim() {
    for (const [oldest, old] of this.#entries) {
      if (this.#entries.size <= this.#options.maxEntries && this.#bytes <= this.#options.maxBytes) {
        break;
      }
      this.#entries.delete(oldest);
      this.#let(old);
    }
  }

  /** An entry that has left the map: its bytes are no longer held. */
  #let(entry: PageEntry) {
    this.#bytes -= entry.size;
    entry.live = false;
  }

  #remove(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#let(entry);
  }
}
