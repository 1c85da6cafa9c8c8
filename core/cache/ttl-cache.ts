/**
 * A small in-process cache with expiry, for values that are read on every page (settings, counts)
 * and may change in another process: each entry lives at most `ttlMs`, and its owner calls
 * `delete`/`clear` when a write of this process is reported (core/cache/changes.ts), so the change
 * shows at once.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    const value = load();
    // A failed load is not cached.
    value.catch(() => this.entries.delete(key));
    if (this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: now + this.ttlMs });
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
