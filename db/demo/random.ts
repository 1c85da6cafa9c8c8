/**
 * Deterministic pseudo-random numbers for the demo data: mulberry32, a small 32-bit generator that
 * is fast and good enough for believable content. The same seed always gives the same sequence.
 */

/** The alphabet and length of core/posts/identity.ts newUniqueId (no look-alikes such as l/1, o/0). */
export const UNIQUE_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
export const UNIQUE_ID_LENGTH = 10;

/** A 32-bit hash of a string (cyrb53 folded to 32 bits), used to derive independent seeds. */
export function hashString(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

export class Random {
  #state: number;

  constructor(seed: number | string) {
    this.#state = (typeof seed === "string" ? hashString(seed) : seed) >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /**
   * An independent generator for one part of the data, so that adding rows to one part does not
   * change the content of the others.
   */
  fork(label: string): Random {
    return new Random(hashString(`${label}:${Math.floor(this.next() * 4294967296)}`));
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A number in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** An integer in [min, max] that favours small values (power > 1) — views, counts, ages. */
  skewed(min: number, max: number, power = 2): number {
    return min + Math.floor(Math.pow(this.next(), power) * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Random.pick: empty list");
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks with the given relative weights (same length as items). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((sum, w) => sum + w, 0);
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }

  /** Up to n distinct items in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, n));
  }

  /** A string of the given length from the alphabet. */
  string(length: number, alphabet: string): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  /** A post unique_id shaped like newUniqueId()'s, but reproducible. */
  uniqueId(): string {
    return this.string(UNIQUE_ID_LENGTH, UNIQUE_ID_ALPHABET);
  }

  digits(length: number): string {
    return String(this.int(1, 9)) + this.string(length - 1, "0123456789");
  }
}
