/**
 * The service worker's side in the page (docs/decisions/0108-installable-app.md). Kept tiny: it is
 * in every page's scripts. The worker is registered only once the page has loaded and the browser
 * is idle, so a visitor never waits for it; in development there is none (Vite serves the
 * modules, and a worker would keep stale ones).
 */

const WORKER_URL = "/sw.js";

let registration: Promise<ServiceWorkerRegistration | null> | null = null;

function supported(): boolean {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator && !import.meta.env.DEV;
}

function whenIdle(work: () => void) {
  const idle = () =>
    "requestIdleCallback" in window
      ? requestIdleCallback(work, { timeout: 5000 })
      : setTimeout(work, 1);
  if (document.readyState === "complete") idle();
  else addEventListener("load", idle, { once: true });
}

/** Registers /sw.js (scope /) after load, when idle; once per page. */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!supported()) return Promise.resolve(null);
  registration ??= new Promise((resolve) =>
    whenIdle(() => {
      navigator.serviceWorker
        .register(WORKER_URL, { scope: "/" })
        .then(resolve, () => resolve(null));
    }),
  );
  return registration;
}

/**
 * The active worker's registration (for push subscriptions), or null where the browser has no
 * service workers or registering failed. Waits for the idle-time registration to be active.
 */
export async function serviceWorkerReady(): Promise<ServiceWorkerRegistration | null> {
  if (!(await registerServiceWorker())) return null;
  return navigator.serviceWorker.ready;
}

/**
 * Tells the worker who is signed in on this page (a member's id, or null for a visitor), so that
 * it keeps the offline list of saved deals for that member only and drops it for anyone else.
 * `fresh`: the member's saved deals just changed (or are on screen), so it reads them again.
 */
export function tellServiceWorkerMember(member: number | null, fresh = false): void {
  if (!supported()) return;
  void registerServiceWorker().then(async (registered) => {
    if (!registered) return;
    const ready = await navigator.serviceWorker.ready;
    ready.active?.postMessage({ type: "member", member, fresh });
  });
}
