import { useEffect, useSyncExternalStore } from "react";
import { useRouteLoaderData } from "react-router";
import type { RootLoaderData } from "../root.tsx";
import { apiCall } from "./api.ts";
import { useSignInFirst, usePendingAction } from "./pending-action.ts";
import { sendSave, toggleSender, type ToggleAnswer } from "./toggle.ts";
import type { ColdReason } from "../../core/posts/reactions/cold-reasons.ts";
import {
  reactionFromIsLiked,
  sameReaction,
  sendVote,
  votePressed,
  type Reaction,
  type Vote,
} from "./vote.ts";

/**
 * The viewer's votes and saves on the cards of a page (records 0009, 0043). Cards are the same for
 * every visitor and cached, so a signed-in member's own reactions and saves come afterwards, from
 * one `POST /api/my_reactions` for all the cards that mounted together. A press changes the card
 * at once and is rolled back if the server refuses it (app/lib/toggle.ts).
 */

const MAX_IDS_PER_CALL = 100;

/** What the viewer has done to one card. */
interface CardState {
  /** The viewer's reaction (null: none) and save, once known. */
  reaction?: Reaction | null;
  /** Why the viewer's cold vote, when given here: taking it back takes back its whole weight. */
  reason?: ColdReason | null;
  saved?: boolean;
  /** A save on its way. */
  saving?: boolean;
  /**
   * The temperature after the viewer's vote, with the card's temperature it was computed from:
   * once the card's own data moves on (a reload), the card's value wins again.
   */
  temperature?: { base: number; value: number };
  /** The server's refusal of the viewer's last press, shown on the card. */
  message?: string;
}

type Cards = ReadonlyMap<number, CardState>;

let viewer: number | null = null;
let cards: Cards = new Map();
const listeners = new Set<() => void>();
const requested = new Set<number>();
let queue: number[] = [];
let flushScheduled = false;
/** Settles once /api/my_reactions has answered for every card asked about so far. */
let answered = Promise.resolve();
/** Each card's save and vote, one call at a time (app/lib/toggle.ts). */
const savers = new Map<number, (next: boolean, current: boolean) => Promise<void>>();
const voters = new Map<number, (next: Vote, current: Vote) => Promise<void>>();
/** The card's own temperature at the viewer's last vote on it, which the vote moved. */
const bases = new Map<number, number>();

/** Changes cards' states, in a new map for React's snapshot, and tells the grids. */
function update(ids: number[], change: (card: CardState, id: number) => CardState) {
  const next = new Map(cards);
  for (const id of ids) next.set(id, { ...next.get(id), ...change(next.get(id) ?? {}, id) });
  cards = next;
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
  cards = new Map();
  requested.clear();
  queue = [];
  savers.clear();
  voters.clear();
}

async function flush() {
  flushScheduled = false;
  const ids = queue;
  queue = [];
  for (let i = 0; i < ids.length; i += MAX_IDS_PER_CALL) {
    const chunk = ids.slice(i, i + MAX_IDS_PER_CALL);
    const result = await apiCall("/my_reactions", { post_ids: chunk });
    const mine = result.ok ? result.data : { reactions: [], saved: [] as number[] };
    // A failed call leaves the buttons unpressed; a press still works and says what it did.
    // What the viewer pressed meanwhile stands.
    update(chunk, (card, id) => ({
      reaction:
        card.reaction === undefined
          ? reactionFromIsLiked(mine.reactions.find((row) => row.post_id === id)?.is_liked)
          : card.reaction,
      saved: card.saved ?? mine.saved.includes(id),
    }));
  }
}

/** Asks /api/my_reactions about cards; the promise settles once it has answered. */
function request(ids: number[]): Promise<void> {
  for (const id of ids) {
    if (requested.has(id)) continue;
    requested.add(id);
    queue.push(id);
  }
  if (queue.length > 0 && !flushScheduled) {
    flushScheduled = true;
    // Every card that mounts in this task joins the same call; calls go one after another.
    answered = answered.then(() => new Promise((resolve) => setTimeout(resolve, 0))).then(flush);
  }
  return answered;
}

/** The viewer's state of a card, once /api/my_reactions has answered for it. */
const known = (postId: number) => request([postId]).then(() => cards.get(postId));

/** Saves a post or takes the save back (record 0043): `want` is the state asked for. */
function pressSave(post: SavablePost, want: boolean) {
  let press = savers.get(post.id);
  if (!press) {
    press = toggleSender(
      () => sendSave(post.unique_id),
      (saved, saving, answer) =>
        update([post.id], () => ({ saved, saving, message: refusal(answer) })),
    );
    savers.set(post.id, press);
  }
  void press(want, cards.get(post.id)?.saved ?? false);
}

/** One press of a card's vote button; a cold vote may say why (record 0086). */
function pressVote(post: VotablePost, btnType: Reaction, shown: Cards, reason?: ColdReason) {
  let press = voters.get(post.id);
  if (!press) {
    press = toggleSender<Vote>(
      (next, current) => sendVote(viewer, post, next, current),
      ({ reaction, reason, temperature }, _busy, answer) =>
        update([post.id], () => ({
          reaction,
          reason,
          temperature: { base: bases.get(post.id)!, value: temperature },
          message: refusal(answer),
        })),
      sameReaction,
    );
    voters.set(post.id, press);
  }
  bases.set(post.id, post.temperature);
  const current: Vote = {
    reaction: shown.get(post.id)?.reaction ?? null,
    reason: shown.get(post.id)?.reason,
    temperature: shownTemperature(shown, post),
  };
  void press(votePressed(current, btnType, reason), current);
}

/** A refusal shows on its card; a success says nothing there (its button shows it). */
const refusal = (answer?: ToggleAnswer<unknown>) => (answer?.ok ? undefined : answer?.message);

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

/** What a card shows of the viewer's vote and save (record 0043), and its temperature. */
export type CardView = Omit<CardState, "temperature"> & { temperature: number };

/** The votes and saves of one grid of cards: read per card, pressed per card (DealCard.tsx). */
export interface GridVoting {
  card(post: VotablePost): CardView;
  vote(post: VotablePost, btnType: Reaction, reason?: ColdReason): void;
  toggleSave(post: SavablePost): void;
}

function shownTemperature(known: Cards, post: VotablePost): number {
  const override = known.get(post.id)?.temperature;
  return override && override.base === post.temperature ? override.value : post.temperature;
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
    () => cards,
    () => cards,
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
      const post = posts.find((candidate) => candidate.id === action.postId)!;
      void known(post.id).then((card) => {
        // Already voted so (before signing in, elsewhere): pressing again would take it back.
        if (card?.reaction !== action.btnType) {
          pressVote(post, action.btnType, cards, action.reason);
        }
      });
    },
    (action) => posts.some((post) => post.id === action.postId),
  );

  // Back from signing in after a Save: save now, unless the deal is saved already.
  usePendingAction(
    "save",
    viewerId !== null,
    (action) => {
      const post = posts.find((candidate) => candidate.unique_id === action.uniqueId)!;
      void known(post.id).then(() => pressSave(post, true));
    },
    (action) => posts.some((post) => post.unique_id === action.uniqueId),
  );

  return {
    toggleSave: (post) => {
      if (viewerId === null) {
        signInFirst({ kind: "save", uniqueId: post.unique_id });
        return;
      }
      void known(post.id).then((card) => pressSave(post, !card?.saved));
    },
    card: (post) => ({ ...snapshot.get(post.id), temperature: shownTemperature(snapshot, post) }),
    vote: (post, btnType, reason) => {
      if (viewerId === null) {
        signInFirst({
          kind: "vote",
          postId: post.id,
          postType: post.post_type,
          btnType,
          ...(reason ? { reason } : {}),
        });
        return;
      }
      pressVote(post, btnType, snapshot, reason);
    },
  };
}
