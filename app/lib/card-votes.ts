import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useRouteLoaderData } from "react-router";
import { temperatureAfterVote } from "../../core/posts/temperature.ts";
import type { RootLoaderData } from "../root.tsx";
import { apiCall } from "./api.ts";
import { useSignInFirst, usePendingAction } from "./pending-action.ts";
import { sendVote, type Reaction } from "./vote.ts";

/**
 * The viewer's votes on the cards of a page (issue 14). Cards are the same for every visitor and
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
}

let viewer: number | null = null;
let state: VoteState = { reactions: new Map(), temperatures: new Map() };
const listeners = new Set<() => void>();
const requested = new Set<number>();
let queue: number[] = [];
let flushScheduled = false;
const waiting = new Map<number, ((reaction: Reaction | null) => void)[]>();

function emit() {
  state = { reactions: new Map(state.reactions), temperatures: new Map(state.temperatures) };
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
  state = { reactions: new Map(), temperatures: new Map() };
  requested.clear();
  queue = [];
}

function settle(ids: number[], reactions: Map<number, Reaction>) {
  for (const id of ids) {
    const reaction = reactions.get(id) ?? null;
    if (!state.reactions.has(id)) state.reactions.set(id, reaction);
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
    const result = await apiCall<{ reactions?: { post_id: number; is_liked: 1 | 2 }[] }>(
      "/my_reactions",
      { post_ids: chunk },
    );
    const found = new Map<number, Reaction>();
    if (result.ok) {
      for (const row of result.data.reactions ?? []) {
        found.set(row.post_id, row.is_liked === 1 ? "like" : "unlike");
      }
    }
    // A failed call leaves the buttons unpressed; a vote still works and says what it did.
    settle(chunk, found);
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

function setVote(postId: number, reaction: Reaction | null, base: number, value: number) {
  state.reactions.set(postId, reaction);
  state.temperatures.set(postId, { base, value });
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

/**
 * A card's vote: the viewer's reaction, the temperature to show, and `vote` (one tap, optimistic).
 * A visitor's tap is remembered and they are sent to sign in; back on this page, the vote is done
 * (app/lib/pending-action.ts), unless they had already voted so.
 */
export function useCardVote(post: VotablePost) {
  const viewerId = useViewerId();
  const signInFirst = useSignInFirst();
  const snapshot = useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
  const [message, setMessage] = useState("");
  const inFlight = useRef(false);

  forViewer(viewerId);
  useEffect(() => {
    if (viewerId !== null) request([post.id]);
  }, [viewerId, post.id]);

  const known = snapshot.reactions.has(post.id);
  const reaction = snapshot.reactions.get(post.id) ?? null;
  const override = snapshot.temperatures.get(post.id);
  const temperature =
    override && override.base === post.temperature ? override.value : post.temperature;

  async function submit(btnType: Reaction, current: Reaction | null, shown: number) {
    if (inFlight.current) return;
    inFlight.current = true;
    setMessage("");
    const next = current === btnType ? null : btnType;
    setVote(post.id, next, post.temperature, temperatureAfterVote(shown, current, next));
    const answer = await sendVote(viewerId, post, btnType);
    inFlight.current = false;
    if (answer.ok) {
      setVote(post.id, answer.reaction, post.temperature, answer.temperature);
      return;
    }
    setVote(post.id, current, post.temperature, shown);
    setMessage(answer.message);
  }

  function vote(btnType: Reaction) {
    if (viewerId === null) {
      signInFirst({ kind: "vote", postId: post.id, postType: post.post_type, btnType });
      return;
    }
    void submit(btnType, reaction, temperature);
  }

  usePendingAction(
    "vote",
    viewerId !== null,
    (action) => {
      void reactionOf(post.id).then((current) => {
        // Already voted so (before signing in, elsewhere): pressing again would take it back.
        if (current === action.btnType) return;
        const override = state.temperatures.get(post.id);
        const shown =
          override && override.base === post.temperature ? override.value : post.temperature;
        void submit(action.btnType, current, shown);
      });
    },
    (action) => action.postId === post.id,
  );

  return { reaction, known, temperature, vote, message, signedIn: viewerId !== null };
}
