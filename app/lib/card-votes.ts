import { useEffect, useSyncExternalStore } from "react";
import { useRouteLoaderData } from "react-router";
import { temperatureAfterVote } from "../../core/posts/temperature.ts";
import type { RootLoaderData } from "../root.tsx";
import { apiCall } from "./api.ts";
import { useSignInFirst, usePendingAction } from "./pending-action.ts";
import { sendVote, type Reaction } from "./vote.ts";

/**
 * The viewer's votes on the cards of a page (record 0009). Cards are the same for every visitor and
 * cached, so a signed-in member's own reactions come afterwards, from one
 * `POST /api/my_reactions` for all the cards that mounted together; a vote changes the card at
 * once and is rolled back if the server refuses it.
 */

const MAX_IDS_PER_CALL = 100;

interface VoteState {
  /** The viewer's reaction per post, once known (null: none). */
  reactions: Map<number, Reaction | null>;
  /**
   * Temperatures after the viewer's votes, with the card's temperature they were computed from:
   * once the card's own data moves on (a reload), the card's value wins again.
   */
  temperatures: Map<number, { base: number; value: number }>;
  /** The server's refusal of the viewer's last vote on a post, shown on its card. */
  messages: Map<number, string>;
  /** Whether the viewer saved each post, once known (the same call answers it; record 0043). */
  saved: Map<number, boolean>;
  /** A save on its way, per post. */
  saving: Set<number>;
}

let viewer: number | null = null;
let state: VoteState = emptyState();
const inFlight = new Set<number>();
/** A tap while the post's previous vote is on its way: shown at once, sent once that is answered. */
const queued = new Map<number, Reaction>();

function emptyState(): VoteState {
  return {
    reactions: new Map(),
    temperatures: new Map(),
    messages: new Map(),
    saved: new Map(),
    saving: new Set(),
  };
}
const listeners = new Set<() => void>();
const requested = new Set<number>();
let queue: number[] = [];
let flushScheduled = false;
const waiting = new Map<number, ((reaction: Reaction | null) => void)[]>();

function emit() {
  state = {
    reactions: new Map(state.reactions),
    temperatures: new Map(state.temperatures),
    messages: new Map(state.messages),
    saved: new Map(state.saved),
    saving: new Set(state.saving),
  };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Starts over when another member signs in (or the viewer signs out) in this tab. */
function forViewer(userId: number | null) {
  if (viewer === userId) return;
  viewer = userId;
  state = emptyState();
  requested.clear();
  queue = [];
}

function settle(ids: number[], reactions: Map<number, Reaction>, saved: Set<number>) {
  for (const id of ids) {
    const reaction = reactions.get(id) ?? null;
    if (!state.reactions.has(id)) state.reactions.set(id, reaction);
    if (!state.saved.has(id)) state.saved.set(id, saved.has(id));
    for (const resolve of waiting.get(id) ?? []) resolve(state.reactions.get(id) ?? null);
    waiting.delete(id);
  }
  emit();
}

async function flush() {
  flushScheduled = false;
  const ids = queue;
  queue = [];
  for (let i = 0; i < ids.length; i += MAX_IDS_PER_CALL) {
    const chunk = ids.slice(i, i + MAX_IDS_PER_CALL);
    const result = await apiCall("/my_reactions", { post_ids: chunk });
    const found = new Map<number, Reaction>();
    const saved = new Set<number>();
    if (result.ok) {
      for (const row of result.data.reactions ?? []) {
        found.set(row.post_id, row.is_liked === 1 ? "like" : "unlike");
      }
      for (const id of result.data.saved ?? []) saved.add(id);
    }
    // A failed call leaves the buttons unpressed; a vote still works and says what it did.
    settle(chunk, found, saved);
  }
}

function request(ids: number[]) {
  for (const id of ids) {
    if (requested.has(id)) continue;
    requested.add(id);
    queue.push(id);
  }
  if (queue.length > 0 && !flushScheduled) {
    flushScheduled = true;
    // Every card that mounts in this task joins the same call.
    setTimeout(() => void flush(), 0);
  }
}

/** The viewer's reaction to a post, once /api/my_reactions has answered for it. */
function reactionOf(postId: number): Promise<Reaction | null> {
  if (state.reactions.has(postId)) return Promise.resolve(state.reactions.get(postId) ?? null);
  return new Promise((resolve) => {
    waiting.set(postId, [...(waiting.get(postId) ?? []), resolve]);
    request([postId]);
  });
}

function setVote(
  postId: number,
  reaction: Reaction | null,
  base: number,
  value: number,
  message = "",
) {
  state.reactions.set(postId, reaction);
  state.temperatures.set(postId, { base, value });
  if (message) state.messages.set(postId, message);
  else state.messages.delete(postId);
  emit();
}

/**
 * Saves a post or takes the save back (record 0043): shown at once, rolled back with the server's
 * message if it refuses. `want` is the state asked for; the call toggles, so it is sent only when
 * the known state differs.
 */
async function submitSave(post: SavablePost, want: boolean) {
  if (state.saving.has(post.id)) return;
  const before = state.saved.get(post.id) ?? false;
  if (before === want) return;
  state.saving.add(post.id);
  state.saved.set(post.id, want);
  state.messages.delete(post.id);
  emit();
  const answer = await apiCall("/save_deal_toggle", {
    unique_id: post.unique_id,
  });
  state.saving.delete(post.id);
  if (answer.ok && typeof answer.data.saved === "boolean") {
    state.saved.set(post.id, answer.data.saved);
  } else {
    state.saved.set(post.id, before);
    state.messages.set(
      post.id,
      answer.data.message || "Sorry, that did not work. Please try again.",
    );
  }
  emit();
}

/** The signed-in member's id from the root loader, or null for a visitor. */
export function useViewerId(): number | null {
  const root = useRouteLoaderData<RootLoaderData>("root");
  return root?.user?.id ?? null;
}

interface VotablePost {
  id: number;
  post_type: "d" | "g";
  temperature: number;
}

/** What saving a card needs (record 0043). */
interface SavablePost {
  id: number;
  unique_id: string;
}

/** What a card shows of its vote: the viewer's reaction, the temperature, a refusal. */
export interface CardVoteView {
  reaction: Reaction | null;
  temperature: number;
  message: string;
}

/** The votes of one grid of cards: read per card, cast per card (DealCard.tsx). */
export interface GridVoting {
  view(post: VotablePost): CardVoteView;
  vote(post: VotablePost, btnType: Reaction): void;
  /** The viewer's save of a card, and saving or unsaving it (record 0043). */
  saved(post: SavablePost): { saved: boolean; busy: boolean };
  toggleSave(post: SavablePost): void;
}

function shownTemperature(snapshot: VoteState, post: VotablePost): number {
  const override = snapshot.temperatures.get(post.id);
  return override && override.base === post.temperature ? override.value : post.temperature;
}

async function submit(
  viewerId: number,
  post: VotablePost,
  btnType: Reaction,
  current: Reaction | null,
  shown: number,
) {
  const next = current === btnType ? null : btnType;
  setVote(post.id, next, post.temperature, temperatureAfterVote(shown, current, next));
  if (inFlight.has(post.id)) {
    queued.set(post.id, btnType);
    return;
  }
  inFlight.add(post.id);
  let answer = await sendVote(viewerId, post, btnType);
  for (let later = queued.get(post.id); answer.ok && later; later = queued.get(post.id)) {
    queued.delete(post.id);
    answer = await sendVote(viewerId, post, later);
  }
  queued.delete(post.id);
  inFlight.delete(post.id);
  if (answer.ok) setVote(post.id, answer.reaction, post.temperature, answer.temperature);
  else setVote(post.id, current, post.temperature, shown, answer.message);
}

/**
 * The votes of a grid's cards, with the grid's hooks run once for all of them rather than once a
 * card (a listing page's server render was measurably slower with per-card hooks). One tap votes
 * (optimistic, rolled back with the server's message). A visitor's tap is remembered and they are
 * sent to sign in; back on this page, the vote is done (app/lib/pending-action.ts), unless they
 * had already voted so.
 */
export function useGridVoting(posts: readonly (VotablePost & SavablePost)[]): GridVoting {
  const viewerId = useViewerId();
  const signInFirst = useSignInFirst();
  const snapshot = useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );

  forViewer(viewerId);
  const idList = posts.map((post) => post.id).join(",");
  useEffect(() => {
    if (viewerId !== null && idList) request(idList.split(",").map(Number));
  }, [viewerId, idList]);

  usePendingAction(
    "vote",
    viewerId !== null,
    (action) => {
      const post = posts.find((candidate) => candidate.id === action.postId);
      if (!post || viewerId === null) return;
      void reactionOf(post.id).then((current) => {
        // Already voted so (before signing in, elsewhere): pressing again would take it back.
        if (current === action.btnType) return;
        void submit(viewerId, post, action.btnType, current, shownTemperature(state, post));
      });
    },
    (action) => posts.some((post) => post.id === action.postId),
  );

  // Back from signing in after a Save: save now, unless the deal is saved already.
  usePendingAction(
    "save",
    viewerId !== null,
    (action) => {
      const post = posts.find((candidate) => candidate.unique_id === action.uniqueId);
      if (!post || viewerId === null) return;
      void reactionOf(post.id).then(() => submitSave(post, true));
    },
    (action) => posts.some((post) => post.unique_id === action.uniqueId),
  );

  return {
    saved: (post) => ({
      saved: snapshot.saved.get(post.id) ?? false,
      busy: snapshot.saving.has(post.id),
    }),
    toggleSave: (post) => {
      if (viewerId === null) {
        signInFirst({ kind: "save", uniqueId: post.unique_id });
        return;
      }
      void reactionOf(post.id).then((): Promise<void> | void => {
        if (state.saving.has(post.id)) return;
        return submitSave(post, !(state.saved.get(post.id) ?? false));
      });
    },
    view: (post) => ({
      reaction: snapshot.reactions.get(post.id) ?? null,
      temperature: shownTemperature(snapshot, post),
      message: snapshot.messages.get(post.id) ?? "",
    }),
    vote: (post, btnType) => {
      if (viewerId === null) {
        signInFirst({ kind: "vote", postId: post.id, postType: post.post_type, btnType });
        return;
      }
      void submit(
        viewerId,
        post,
        btnType,
        snapshot.reactions.get(post.id) ?? null,
        shownTemperature(snapshot, post),
      );
    },
  };
}
