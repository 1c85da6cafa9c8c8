/**
 * What a committed write changed, named by the kinds of data that caches keep copies of
 * (docs/decisions/0025-cache-invalidation.md):
 *
 * - posts: a deal or discussion written, edited, hidden or deleted
 * - reactions: likes and unlikes (counts and trending)
 * - comments: comments and replies (counts and trending)
 * - users: names and pictures shown on cards, accounts deleted
 * - settings: site settings, footer, social links
 * - catalog: stores and categories
 * - forums: the forums the forum list shows
 * - cms: CMS pages and featured stores
 * - reputation: members' points, levels and badges (the reputation job, level thresholds)
 */
export const CHANGE_TOPICS = [
  "posts",
  "reactions",
  "comments",
  "users",
  "settings",
  "catalog",
  "forums",
  "cms",
  "reputation",
] as const;

export type ChangeTopic = (typeof CHANGE_TOPICS)[number];

/** "local": a write of this process; "remote": one another process reported (see the record). */
export type ChangeOrigin = "local" | "remote";

export type ChangeListener = (topic: ChangeTopic, origin: ChangeOrigin) => void;

/**
 * The one hook between writers and caches. A service that writes calls `emit` after its
 * transaction commits; each cache's owner subscribes with `on` and drops what it kept. A page
 * cache subscribes to every topic; a cross-process broadcast subscribes to local changes, sends
 * them out, and emits the ones it receives with origin "remote".
 */
export interface ChangeFeed {
  emit(topic: ChangeTopic, origin?: ChangeOrigin): void;
  /** Calls `listener` after each change of one of `topics`; returns the unsubscribe. */
  on(topics: ChangeTopic | readonly ChangeTopic[], listener: ChangeListener): () => void;
}

export function createChangeFeed(log: { error(msg: string | object): void }): ChangeFeed {
  const listeners = new Map<ChangeTopic, Set<ChangeListener>>();
  return {
    emit(topic, origin = "local") {
      for (const listener of listeners.get(topic) ?? []) {
        // A cache that fails to drop must not fail the write that already committed.
        try {
          listener(topic, origin);
        } catch (error) {
          log.error({ msg: "a change listener failed", topic, err: error });
        }
      }
    },
    on(topics, listener) {
      const list: readonly ChangeTopic[] = typeof topics === "string" ? [topics] : topics;
      for (const topic of list) {
        let set = listeners.get(topic);
        if (!set) listeners.set(topic, (set = new Set()));
        set.add(listener);
      }
      return () => {
        for (const topic of list) listeners.get(topic)?.delete(listener);
      };
    },
  };
}
