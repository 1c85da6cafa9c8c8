import { createPath, type DataRouter } from "react-router";

/**
 * A page loaded from the previous build during a rolling upgrade (docs/decisions/0101).
 *
 * React Router moves to a page whose script it has not loaded by importing that script; when the
 * new build's server no longer has it, React Router reloads the page on screen
 * (`window.location.reload()`), not the page asked for, and what was typed in it is gone. Here:
 * - that reload is turned into a load of the page being opened (browsers with the Navigation API):
 *   one document load, where the visitor was going;
 * - whenever the document is left while React Router is busy (the reload, or its own document load
 *   of a route it could not discover), the text fields' contents are kept in sessionStorage for
 *   this address and put back once when it is shown again (the reload of the same page, or Back).
 */

const DRAFTS_KEY = "chalkboard:drafts-kept-for-reload";
/** Drafts older than this are dropped unread: the reload they were kept for is long past. */
export const DRAFT_MAX_AGE_MS = 10 * 60_000;
/** The fields whose text is kept: what a person types. Passwords and hidden fields never are. */
const KEPT_INPUT_TYPES = new Set(["text", "search", "email", "url", "tel", "number"]);

interface KeptField {
  form: string;
  name: string;
  value: string;
}
interface Drafts {
  url: string;
  savedAt: number;
  fields: KeptField[];
}

function here(): string {
  return window.location.pathname + window.location.search;
}

/** A form's name for the drafts: its action and its place among the forms with that action. */
function formKey(form: HTMLFormElement): string {
  const action = form.getAttribute("action") ?? "";
  const same = Array.from(document.forms).filter(
    (f) => (f.getAttribute("action") ?? "") === action,
  );
  return `${action}#${same.indexOf(form)}`;
}

function keptFields(form: HTMLFormElement): (HTMLInputElement | HTMLTextAreaElement)[] {
  return Array.from(form.elements).filter(
    (element): element is HTMLInputElement | HTMLTextAreaElement =>
      (element instanceof HTMLTextAreaElement ||
        (element instanceof HTMLInputElement && KEPT_INPUT_TYPES.has(element.type))) &&
      element.name !== "" &&
      !element.disabled,
  );
}

/** Keeps what is typed in the page's forms, for this address. */
export function saveDrafts(now = Date.now()): void {
  const fields: KeptField[] = [];
  for (const form of Array.from(document.forms)) {
    const key = formKey(form);
    for (const element of keptFields(form)) {
      if (element.value.trim() !== "") {
        fields.push({ form: key, name: element.name, value: element.value });
      }
    }
  }
  try {
    if (fields.length === 0) sessionStorage.removeItem(DRAFTS_KEY);
    else sessionStorage.setItem(DRAFTS_KEY, JSON.stringify({ url: here(), savedAt: now, fields }));
  } catch {
    // No storage (private mode, full): the reload goes on without the drafts.
  }
}

/**
 * Puts kept drafts of this address back, once, into the fields still empty, as typing would (an
 * `input` event, so React's state follows). Drafts of another address or too old are dropped.
 */
export function restoreDrafts(now = Date.now()): void {
  let drafts: Drafts | undefined;
  try {
    const text = sessionStorage.getItem(DRAFTS_KEY);
    if (!text) return;
    drafts = JSON.parse(text) as Drafts;
    if (drafts.url !== here()) return; // kept for a page the visitor may still come back to
    sessionStorage.removeItem(DRAFTS_KEY);
  } catch {
    return;
  }
  if (now - drafts.savedAt > DRAFT_MAX_AGE_MS) return;
  const forms = new Map(Array.from(document.forms, (form) => [formKey(form), form]));
  for (const kept of drafts.fields) {
    const element = forms.get(kept.form)?.elements.namedItem(kept.name);
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) continue;
    if (element.value !== "") continue;
    // React tracks the value it set through the element's own setter; the prototype's is the
    // browser's, so React sees the change the input event reports.
    const prototype = Object.getPrototypeOf(element) as object;
    Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(element, kept.value);
    element.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

function busy(router: DataRouter): boolean {
  const { navigation, fetchers } = router.state;
  return (
    navigation.state !== "idle" || Array.from(fetchers.values()).some((f) => f.state !== "idle")
  );
}

/**
 * Installs both behaviours for the router of this page; returns their removal. Drafts kept before
 * a reload are put back first.
 */
export function handleUpgradeReloads(router: DataRouter): () => void {
  restoreDrafts();
  const onPageHide = () => {
    if (busy(router)) saveDrafts();
  };
  const onNavigate = (event: NavigateEvent) => {
    // Only React Router's own reload in the middle of a move to another page; a reload the visitor
    // asked for (the browser's button) is left alone.
    const { navigation } = router.state;
    if (event.navigationType !== "reload" || !event.cancelable || event.userInitiated) return;
    if (navigation.state !== "loading" || !navigation.location) return;
    const target = createPath(navigation.location);
    if (target === here()) return;
    event.preventDefault();
    // Out of the navigate event, which a navigation started inside it would cut short.
    window.setTimeout(() => window.location.assign(target), 0);
  };
  const navigationApi = (window as { navigation?: Navigation }).navigation;
  window.addEventListener("pagehide", onPageHide);
  navigationApi?.addEventListener("navigate", onNavigate);
  return () => {
    window.removeEventListener("pagehide", onPageHide);
    navigationApi?.removeEventListener("navigate", onNavigate);
  };
}
