interface Entry<V> {
  value: Promise<V>;
  /** The loaded value, once there is one: served while a refresh runs. */
  loaded?: { value: V };
  expires: number;
  refreshing: boolean;
}

/**
 * TtlCache's contract (core/cache/ttl-cache.ts) for values that are slow to compute, such as
 * counts over a million deals: once an entry expires, its last value is still answered while a
 * single refresh runs in the background, so no request waits for it. `clear` (called by the
 * owner when a change is reported, core/cache/changes.ts) drops values outright, so a process's
 * own changes still show at once.
 */
export class RefreshingCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    if (hit?.loaded) {
      if (!hit.refreshing) {
        hit.refreshing = true;
        this.load(key, load).value.catch(() => {
          hit.refreshing = false;
        });
      }
      return Promise.resolve(hit.loaded.value);
    }
    return this.load(key, load).value;
  }

  private load(key: string, load: () => Promise<V>): Entry<V> {
    const previous = this.entries.get(key);
    const entry: Entry<V> = {
      value: load(),
      loaded: previous?.loaded,
      expires: Date.now() + this.ttlMs,
      refreshing: false,
    };
    entry.value.then(
      (value) => {
        entry.loaded = { value };
        if (this.entries.get(key) === previous) this.set(key, entry);
      },
      () => {
        // A failed load is not cached.
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    // A first load is shared by concurrent requests at once; a refresh replaces its entry when
    // it succeeds (above), so the old value keeps being answered meanwhile.
    if (!previous?.loaded) this.set(key, entry);
    return entry;
  }

  private set(key: string, entry: Entry<V>) {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }

  clear(): void {
    this.entries.clear();
  }
}
