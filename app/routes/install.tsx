import { useState, useSyncExternalStore } from "react";
import { useRouteLoaderData } from "react-router";
import { DEFAULT_SITE_NAME } from "../../core/settings/defaults.ts";
import { pageMeta } from "../lib/meta.ts";
import { installPromptStore } from "../lib/service-worker.ts";
import type { RootLoaderData } from "../root.tsx";
import type { Route } from "./+types/install";
import "../styles/install.css";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Install the app",
    description:
      "Put the deals on your home screen: how to install the app on Android, iPhone and iPad, and on a computer.",
    path: "/install",
  });

const noPrompt = () => null;
const runsStandalone = () =>
  typeof matchMedia === "function" && matchMedia("(display-mode: standalone)").matches;
const subscribeNever = () => () => {};

/**
 * The Install button: shown where the browser offers to install the site (Chrome and Edge fire
 * `beforeinstallprompt`, kept by app/lib/service-worker.ts); elsewhere the steps below say how.
 */
function InstallButton({ siteName }: { siteName: string }) {
  const prompt = useSyncExternalStore(
    installPromptStore.subscribe,
    installPromptStore.get,
    noPrompt,
  );
  const standalone = useSyncExternalStore(subscribeNever, runsStandalone, () => false);
  const [outcome, setOutcome] = useState<"accepted" | "dismissed" | null>(null);
  const [busy, setBusy] = useState(false);

  async function install() {
    if (!prompt) return;
    setBusy(true);
    try {
      await prompt.prompt();
      const choice = await prompt.userChoice;
      setOutcome(choice.outcome);
    } finally {
      // An offer can be shown once; the browser makes a new one if the visitor said no.
      installPromptStore.used();
      setBusy(false);
    }
  }

  let status: string;
  if (standalone) status = `You are using the ${siteName} app.`;
  else if (outcome === "accepted") status = `${siteName} is being added to your device.`;
  else if (prompt) status = "Your browser can install it now, in one tap.";
  else if (outcome === "dismissed") status = "Not installed. You can install it any time below.";
  else status = "Follow the steps for your device below.";

  return (
    <div className="install-action">
      {prompt && !standalone && (
        <button type="button" className="btn btn-primary" onClick={install} disabled={busy}>
          {busy ? "Installing…" : "Install"}
        </button>
      )}
      <p role="status">{status}</p>
    </div>
  );
}

export default function InstallPage() {
  const root = useRouteLoaderData<RootLoaderData>("root");
  const siteName = root?.settings.websiteName ?? DEFAULT_SITE_NAME;
  return (
    <div className="container content-page install-page">
      <article className="card">
        <h1 className="page-title">Install the app</h1>
        <p className="install-intro">
          {`Keep ${siteName} on your home screen: it opens in its own window, full screen, and shows your saved deals even when you have no signal. It takes no space in an app store and updates itself.`}
        </p>
        <InstallButton siteName={siteName} />

        <section aria-labelledby="install-android">
          <h2 id="install-android">Android (Chrome)</h2>
          <ol>
            <li>{`Open ${siteName} in Chrome.`}</li>
            <li>
              Tap <strong>Install</strong> above, or the menu <span aria-hidden="true">⋮</span> (top
              right) and then <strong>Add to Home screen</strong> or <strong>Install app</strong>.
            </li>
            <li>
              Tap <strong>Install</strong> to confirm. The app appears on your home screen and in
              your app list.
            </li>
          </ol>
        </section>

        <section aria-labelledby="install-ios">
          <h2 id="install-ios">iPhone and iPad (Safari)</h2>
          <ol>
            <li>{`Open ${siteName} in Safari.`}</li>
            <li>
              Tap the <strong>Share</strong> button (the square with an arrow pointing up), at the
              bottom of the screen on iPhone, at the top on iPad.
            </li>
            <li>
              Scroll down and tap <strong>Add to Home Screen</strong>, then <strong>Add</strong>.
            </li>
          </ol>
        </section>

        <section aria-labelledby="install-desktop">
          <h2 id="install-desktop">Computer (Chrome or Edge)</h2>
          <ol>
            <li>{`Open ${siteName} in Chrome or Microsoft Edge.`}</li>
            <li>
              Click <strong>Install</strong> above, or the install icon at the right end of the
              address bar (a screen with a down arrow; in Edge, <strong>App available</strong>).
            </li>
            <li>
              Click <strong>Install</strong>. The app opens in its own window and can be pinned to
              your taskbar or dock.
            </li>
          </ol>
        </section>
      </article>
    </div>
  );
}
