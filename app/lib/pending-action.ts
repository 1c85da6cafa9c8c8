import { useEffect, useRef } from "react";
import { useLocation, useNavigate, type NavigateFunction } from "react-router";
import { withReturnPath } from "../../core/auth/return-path.ts";
import type { ColdReason } from "../../core/posts/reactions/cold-reasons.ts";

/**
 * What a visitor tried to do before being sent to sign in. It is kept in this tab's
 * sessionStorage with the page it was tried on, and done when the visitor is back on that page,
 * signed in (record 0035, "Sign-in that returns you").
 */
export type PendingAction =
  | {
      kind: "vote";
      postId: number;
      postType: "d" | "g";
      btnType: "like" | "unlike";
      /** Why a cold vote, when the deal page asked (record 0086). */
      reason?: ColdReason;
    }
  | {
      kind: "comment";
      postId: number;
      postType: "d" | "g";
      /** The comment replied to, or null for a top-level comment. */
      parentId: number | null;
      text: string;
    }
  | { kind: "follow"; userId: number }
  | { kind: "save"; uniqueId: string }
  /** Like on a comment or reply (record 0092): done on return, as a vote is. */
  | { kind: "commentLike"; commentId: number }
  /** Follow on a store or category page (record 0043). */
  | { kind: "followScope"; scope: "store" | "category"; id: number }
  /** Report: the dialog opens again on return, for the visitor to choose a reason. */
  | { kind: "report"; itemType: "d" | "g" | "comment" | "user"; itemId: string | number };

interface StoredAction {
  /** The page (path and query) the action was tried on. */
  path: string;
  action: PendingAction;
  /** When it was tried (ms); an old one is dropped, not done by surprise. */
  at: number;
}

const STORAGE_KEY = "chalkboard.pendingAction";
/** A visitor who takes longer than this to sign in is not surprised by a late action. */
const PENDING_ACTION_TTL_MS = 30 * 60 * 1000;

/**
 * `/login?next=…` for a local path, checked here as the server checks it again
 * (core/auth/return-path.ts): anything else gives the bare page.
 */
export function loginPath(next: string, page: "/login" | "/register" = "/login"): string {
  return withReturnPath(page, next);
}

function currentPath(location: { pathname: string; search: string }): string {
  return location.pathname + location.search;
}

function readStored(): StoredAction | null {
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as StoredAction) : null;
  } catch {
    return null;
  }
}

/**
 * Remembers `action` for the current page and sends the visitor to sign in, with this page as
 * the return path.
 */
export function signInFirst(
  action: PendingAction,
  navigate: NavigateFunction,
  location: { pathname: string; search: string },
): void {
  const path = currentPath(location);
  try {
    const stored: StoredAction = { path, action, at: Date.now() };
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // Storage refused (private mode, quota): the visitor still gets to sign in and back.
  }
  navigate(loginPath(path));
}

/**
 * Takes the pending action for this page, if one of `kind` is waiting and the viewer is signed
 * in, and runs `run` with it once. Actions for other pages stay stored for those pages.
 */
export function usePendingAction<K extends PendingAction["kind"]>(
  kind: K,
  signedIn: boolean,
  run: (action: Extract<PendingAction, { kind: K }>) => void,
  /** Only actions this component owns (for example the card of this post). */
  accepts: (action: Extract<PendingAction, { kind: K }>) => boolean = () => true,
): void {
  const location = useLocation();
  const runRef = useRef(run);
  runRef.current = run;
  const acceptsRef = useRef(accepts);
  acceptsRef.current = accepts;
  useEffect(() => {
    if (!signedIn) return;
    const stored = readStored();
    if (!stored || stored.action.kind !== kind) return;
    if (Date.now() - stored.at > PENDING_ACTION_TTL_MS) {
      window.sessionStorage.removeItem(STORAGE_KEY);
      return;
    }
    if (stored.path !== currentPath(location)) return;
    const action = stored.action as Extract<PendingAction, { kind: K }>;
    if (!acceptsRef.current(action)) return;
    window.sessionStorage.removeItem(STORAGE_KEY);
    runRef.current(action);
  }, [kind, signedIn, location]);
}

/** `signInFirst` bound to this component's router. */
export function useSignInFirst(): (action: PendingAction) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return (action) => signInFirst(action, navigate, location);
}
