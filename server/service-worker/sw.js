// The site's service worker (docs/decisions/0108-installable-app.md), served at /sw.js with scope
// `/`. Plain JavaScript, read as text by server/service-worker/worker-script.ts, which appends the
// call with this build's settings: no compiler touches it, so what is written here is what runs.
// It caches no page, no answer to a POST, and no /api/ answer but the member's offline list.

/**
 * @param {{version: string, precache: string[], offlinePath: string, savedDealsPath: string,
 *   iconPath: string, signOutPaths: string[]}} settings what server/service-worker/worker-script.ts
 *   says (WorkerSettings)
 * @param {string} listMark where the offline page takes the saved deals
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by the line the server appends
function serviceWorkerMain(settings, listMark) {
  const scope = self;
  const origin = scope.location.origin;
  const SHELL_CACHE = `shell-${settings.version}`;
  // The member's saved deals, kept apart from the shell so a new version keeps them.
  const OFFLINE_CACHE = "offline-saved-deals";
  const OFFLINE_KEY = new URL("/__offline/saved-deals", origin).href;
  const REFRESH_MS = 60_000;
  const precached = new Set(settings.precache.map((path) => new URL(path, origin).href));
  let refreshedAt = 0;

  scope.addEventListener("install", (event) => {
    event.waitUntil(
      caches
        .open(SHELL_CACHE)
        // `reload`: from the network, never an older copy in the HTTP cache.
        .then((cache) =>
          cache.addAll(settings.precache.map((path) => new Request(path, { cache: "reload" }))),
        )
        .then(() => scope.skipWaiting()),
    );
  });

  scope.addEventListener("activate", (event) => {
    event.waitUntil(
      (async () => {
        for (const name of await caches.keys()) {
          if (name.startsWith("shell-") && name !== SHELL_CACHE) await caches.delete(name);
        }
        // The page's request starts while the worker wakes, so a navigation waits for no worker.
        await scope.registration.navigationPreload?.enable();
        await scope.clients.claim();
      })(),
    );
  });

  function forgetSavedDeals() {
    refreshedAt = 0;
    return caches.delete(OFFLINE_CACHE);
  }

  async function storedList() {
    const cache = await caches.open(OFFLINE_CACHE);
    const answer = await cache.match(OFFLINE_KEY);
    return answer ? await answer.json() : null;
  }

  /** Fetches the member's saved deals and keeps them, for that member only. */
  async function refreshSavedDeals(member) {
    refreshedAt = Date.now();
    const answer = await fetch(settings.savedDealsPath, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { accept: "application/json" },
    });
    if (!answer.ok) {
      // Signed out meanwhile (401), or another failure: keep nothing that may not be theirs.
      if (answer.status === 401 || answer.status === 403) await forgetSavedDeals();
      return;
    }
    const list = await answer.json();
    // The session may have changed between the page's message and this answer.
    if (list.member !== member) {
      await forgetSavedDeals();
      return;
    }
    const cache = await caches.open(OFFLINE_CACHE);
    await cache.put(
      OFFLINE_KEY,
      new Response(JSON.stringify(list), { headers: { "content-type": "application/json" } }),
    );
  }

  /** The page says who is signed in: a member (an id) or a visitor (null). */
  async function memberOnPage(member, fresh) {
    const kept = await storedList();
    if (member === null) {
      if (kept) await forgetSavedDeals();
      return;
    }
    if (kept && kept.member !== member) await forgetSavedDeals();
    if (fresh || !kept || kept.member !== member || Date.now() - refreshedAt > REFRESH_MS) {
      await refreshSavedDeals(member);
    }
  }

  scope.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || data.type !== "member") return;
    const member = typeof data.member === "number" ? data.member : null;
    event.waitUntil(memberOnPage(member, data.fresh === true).catch(() => undefined));
  });

  function escapeHtml(text) {
    return text.replace(
      /[&<>"']/g,
      (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
    );
  }

  /** A same-origin address of this site, or null for anything else. */
  function sameOriginUrl(address) {
    if (typeof address !== "string" || address === "") return null;
    try {
      const url = new URL(address, origin);
      return url.origin === origin ? url.href : null;
    } catch {
      return null;
    }
  }

  function savedDealsHtml(list) {
    if (!list || list.deals.length === 0) {
      return list
        ? '<p class="empty">You have no saved deals yet.</p>'
        : '<p class="empty">Sign in and save deals to read them here when you are offline.</p>';
    }
    const when = new Date(list.saved_at);
    const items = list.deals
      .map((deal) => {
        const href = sameOriginUrl(deal.url) ?? "/";
        return (
          `<li><a href="${escapeHtml(href)}">${escapeHtml(deal.title)}</a>` +
          `<span class="meta">${escapeHtml(deal.price)}${deal.price && deal.store ? " · " : ""}` +
          `${escapeHtml(deal.store)}</span></li>`
        );
      })
      .join("");
    return (
      `<h2>Your saved deals</h2>` +
      `<p class="seen">As last seen ${escapeHtml(when.toLocaleString())}.</p>` +
      `<ul class="deals">${items}</ul>`
    );
  }

  async function offlinePage() {
    const shell = await caches.match(new URL(settings.offlinePath, origin).href);
    const template = shell
      ? await shell.text()
      : `<!doctype html><h1>You are offline</h1>${listMark}`;
    const list = await storedList().catch(() => null);
    return new Response(template.replace(listMark, savedDealsHtml(list)), {
      status: 503,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        // The page runs no script at all.
        "content-security-policy":
          "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'",
      },
    });
  }

  async function navigation(event) {
    try {
      const preloaded = await event.preloadResponse;
      return preloaded ?? (await fetch(event.request));
    } catch {
      return offlinePage();
    }
  }

  scope.addEventListener("fetch", (event) => {
    const { request } = event;
    const url = new URL(request.url);
    if (url.origin !== origin) return;
    if (settings.signOutPaths.includes(url.pathname) && request.method !== "GET") {
      // Signing out: the member's list goes before the answer comes back.
      event.waitUntil(forgetSavedDeals());
      return;
    }
    if (request.method !== "GET") return;
    if (request.mode === "navigate") {
      event.respondWith(navigation(event));
      return;
    }
    if (precached.has(url.href)) {
      event.respondWith(
        caches
          .open(SHELL_CACHE)
          .then((cache) => cache.match(request))
          .then((hit) => hit ?? fetch(request)),
      );
    }
    // Everything else goes to the network as if there were no worker.
  });

  scope.addEventListener("push", (event) => {
    let payload;
    try {
      payload = event.data?.json() ?? {};
    } catch {
      // Not JSON: nothing this site sent.
      return;
    }
    if (typeof payload !== "object" || payload === null) return;
    const title = typeof payload.title === "string" && payload.title ? payload.title : "";
    if (!title) return;
    const options = {
      body: typeof payload.body === "string" ? payload.body : "",
      icon: settings.iconPath,
      badge: settings.iconPath,
      data: { url: sameOriginUrl(payload.url) ?? new URL("/", origin).href },
    };
    if (typeof payload.tag === "string" && payload.tag) options.tag = payload.tag;
    event.waitUntil(scope.registration.showNotification(title, options));
  });

  scope.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const data = event.notification.data;
    const target = sameOriginUrl(data?.url) ?? new URL("/", origin).href;
    event.waitUntil(
      (async () => {
        const open = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
        const same = open.find((client) => client.url === target);
        if (same) return same.focus();
        return scope.clients.openWindow(target);
      })(),
    );
  });
}
