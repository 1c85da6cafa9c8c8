/**
 * Chrome's own installability check (docs/decisions/0108-installable-app.md): what Lighthouse's
 * PWA category reported until Lighthouse 12 dropped it. One page of a running server is opened in
 * Chromium, its service worker left to take over, and `Page.getInstallabilityErrors` asked over
 * the DevTools protocol (Node's own WebSocket: no other client is needed).
 */
import * as chromeLauncher from "chrome-launcher";

interface CdpMessage {
  id?: number;
  method?: string;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** A DevTools connection to the browser: commands answered by id, events awaited by name. */
async function connect(port: number) {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 0;
  const pending = new Map<number, (message: CdpMessage) => void>();
  const waiters: { method: string; resolve: () => void }[] = [];
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as CdpMessage;
    if (message.id !== undefined) pending.get(message.id)?.(message);
    else if (message.method) {
      for (const waiter of waiters.filter((w) => w.method === message.method)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  return {
    async send(method: string, params: object = {}, sessionId?: string) {
      const id = ++nextId;
      const answer = await new Promise<CdpMessage>((resolve) => {
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
      pending.delete(id);
      if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
      return answer.result ?? {};
    },
    event(method: string) {
      return new Promise<void>((resolve) => waiters.push({ method, resolve }));
    },
    close: () => socket.close(),
  };
}

/**
 * The installability errors Chrome finds for `url` (none: the site can be installed), asked in a
 * fresh, non-incognito profile, as a visitor's browser would.
 */
export async function installabilityErrors(
  url: string,
  chromePath: string,
  chromeFlags: string[],
): Promise<string[]> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags, logLevel: "error" });
  try {
    const cdp = await connect(chrome.port);
    try {
      const { targetId } = await cdp.send("Target.createTarget", { url: "about:blank" });
      const { sessionId } = (await cdp.send("Target.attachToTarget", {
        targetId,
        flatten: true,
      })) as { sessionId: string };
      await cdp.send("Page.enable", {}, sessionId);
      const loaded = cdp.event("Page.loadEventFired");
      await cdp.send("Page.navigate", { url }, sessionId);
      await loaded;
      // The worker registers once the page is idle; Chrome asks for one with a fetch handler.
      const ready = await cdp.send(
        "Runtime.evaluate",
        {
          expression:
            "Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise((r) => setTimeout(() => r(false), 30000))])",
          awaitPromise: true,
          returnByValue: true,
        },
        sessionId,
      );
      const { installabilityErrors } = (await cdp.send(
        "Page.getInstallabilityErrors",
        {},
        sessionId,
      )) as { installabilityErrors: { errorId: string }[] };
      const errors = installabilityErrors.map((error) => error.errorId);
      if ((ready.result as { value?: boolean } | undefined)?.value !== true) {
        errors.push("no-service-worker-within-30-s");
      }
      return errors;
    } finally {
      cdp.close();
    }
  } finally {
    chrome.kill();
  }
}
