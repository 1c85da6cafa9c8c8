import { useEffect, useId, useState } from "react";
import { apiCall } from "../lib/api.ts";
import { messageOf } from "../lib/api-form.ts";
import { serviceWorkerReady } from "../lib/service-worker.ts";

/**
 * "Push notifications on this device" (docs/decisions/0109-push-alerts.md): a member turns push
 * on or off for the browser they are using. On asks the browser's permission, subscribes through
 * the site's service worker (/sw.js, registered by the app on every page) with the site's VAPID
 * key and sends the subscription to /api/push_subscribe; off unsubscribes the browser and tells
 * /api/push_unsubscribe. The state shown is the browser's and the site's together: a browser
 * subscription the site does not hold for this member (another member's, or one removed after
 * its push service dropped it) counts as off.
 *
 * Push needs JavaScript by its nature: before hydration the control says so.
 */

type PushState = "checking" | "on" | "off" | "blocked" | "unsupported" | "no-worker" | "no-script";

const STATE_TEXT: Record<PushState, string> = {
  "no-script": "Push notifications need JavaScript in this browser.",
  checking: "Checking this device…",
  on: "On: this device gets push notifications.",
  off: "Off: this device gets no push notifications.",
  blocked:
    "Blocked by the browser: allow notifications for this site in the browser's site settings, then turn them on here.",
  unsupported:
    "This browser cannot receive push notifications. On an iPhone or iPad, add the site to the Home Screen first and open it from there.",
  "no-worker":
    "Push notifications are not available yet: the site's app part has not started in this browser. Reload the page and try again.",
};

/** How long to wait for the service worker before saying it is not there. */
const WORKER_WAIT_MS = 8_000;

function pushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window
  );
}

async function workerRegistration(): Promise<ServiceWorkerRegistration | null> {
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), WORKER_WAIT_MS));
  return Promise.race([serviceWorkerReady(), timeout]);
}

/** The VAPID key as PushManager.subscribe wants it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

interface Device {
  label: string;
  since: string;
  endpoint: string;
}

export function PushToggle({
  context,
  heading: Heading = "h2",
  showDevices = false,
}: {
  /** What push brings on this page (alerts, replies…), under the title. */
  context?: string;
  /** The title's level where the control sits. */
  heading?: "h2" | "h3";
  /** Also list the member's other devices with push on, each with a way to turn it off. */
  showDevices?: boolean;
}) {
  const [state, setState] = useState<PushState>("no-script");
  const [busy, setBusy] = useState<"" | "on" | "off">("");
  const [problem, setProblem] = useState("");
  const [devices, setDevices] = useState<Device[]>([]);
  const [thisEndpoint, setThisEndpoint] = useState("");
  const [removing, setRemoving] = useState("");
  const id = useId();
  const DevicesHeading = Heading === "h2" ? "h3" : "h4";

  async function refreshDevices() {
    const answer = await apiCall("/push_key", {});
    if (answer.ok) setDevices(answer.data.devices);
  }

  async function removeDevice(endpoint: string) {
    setRemoving(endpoint);
    setProblem("");
    const answer = await apiCall("/push_unsubscribe", { endpoint });
    if (!answer.ok)
      setProblem(messageOf(answer.data, "That device could not be removed. Try again."));
    await refreshDevices();
    setRemoving("");
  }

  useEffect(() => {
    let cancelled = false;
    const settle = (next: PushState) => {
      if (!cancelled) setState(next);
    };
    async function look() {
      void refreshDevices();
      if (!pushSupported()) return settle("unsupported");
      if (Notification.permission === "denied") return settle("blocked");
      settle("checking");
      const registration = await workerRegistration();
      if (!registration) return settle("no-worker");
      const [subscription, answer] = await Promise.all([
        registration.pushManager.getSubscription(),
        apiCall("/push_key", {}),
      ]);
      if (!answer.ok || !subscription) return settle("off");
      if (!cancelled) setThisEndpoint(subscription.endpoint);
      const known = answer.data.devices.some((d) => d.endpoint === subscription.endpoint);
      settle(known && Notification.permission === "granted" ? "on" : "off");
    }
    look().catch(() => settle("off"));
    return () => {
      cancelled = true;
    };
  }, []);

  async function turnOn() {
    setBusy("on");
    setProblem("");
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setState(permission === "denied" ? "blocked" : "off");
        if (permission !== "denied")
          setProblem("Push stays off: the browser's question was closed without an answer.");
        return;
      }
      const registration = await workerRegistration();
      if (!registration) return setState("no-worker");
      const keyAnswer = await apiCall("/push_key", {});
      if (!keyAnswer.ok)
        return setProblem(messageOf(keyAnswer.data, "The site could not be reached. Try again."));
      const key = keyBytes(keyAnswer.data.public_key);
      let subscription = await registration.pushManager.getSubscription();
      // A subscription made for another key (an older site key) cannot be used: make a new one.
      if (subscription && !sameKey(subscription, key)) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription ??= await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: key,
      });
      const saved = await apiCall(
        "/push_subscribe",
        subscription.toJSON() as Record<string, unknown>,
      );
      if (!saved.ok) {
        await subscription.unsubscribe().catch(() => false);
        return setProblem(messageOf(saved.data, "Push could not be turned on. Try again."));
      }
      setThisEndpoint(subscription.endpoint);
      setState("on");
      await refreshDevices();
    } catch (error) {
      setProblem(
        `Push could not be turned on: ${(error as Error).message || "the browser refused"}.`,
      );
    } finally {
      setBusy("");
    }
  }

  async function turnOff() {
    setBusy("off");
    setProblem("");
    try {
      const registration = await workerRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      if (subscription) {
        const answer = await apiCall("/push_unsubscribe", { endpoint: subscription.endpoint });
        if (!answer.ok)
          return setProblem(messageOf(answer.data, "Push could not be turned off. Try again."));
        await subscription.unsubscribe();
      }
      setState("off");
      await refreshDevices();
    } catch (error) {
      setProblem(
        `Push could not be turned off: ${(error as Error).message || "the browser refused"}.`,
      );
    } finally {
      setBusy("");
    }
  }

  const canToggle = state === "on" || state === "off";
  return (
    <section className="push-toggle card" aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className="push-toggle-title">
        Push notifications on this device
      </Heading>
      {context && <p className="push-toggle-context">{context}</p>}
      <p className="push-toggle-state" role="status" aria-live="polite" data-state={state}>
        {busy === "on"
          ? "Turning push notifications on…"
          : busy === "off"
            ? "Turning push notifications off…"
            : STATE_TEXT[state]}
      </p>
      {canToggle && (
        <button
          type="button"
          className={state === "on" ? "btn btn-outline" : "btn btn-primary"}
          disabled={busy !== ""}
          aria-busy={busy !== "" || undefined}
          onClick={() => void (state === "on" ? turnOff() : turnOn())}
        >
          {state === "on" ? "Turn off on this device" : "Turn on on this device"}
        </button>
      )}
      {showDevices && devices.length > 0 && (
        <div className="push-devices">
          <DevicesHeading id={`${id}-devices`} className="push-devices-title">
            Your devices with push notifications on
          </DevicesHeading>
          <ul aria-labelledby={`${id}-devices`}>
            {devices.map((device) => (
              <li key={device.endpoint}>
                <span>
                  {device.label}
                  {device.endpoint === thisEndpoint ? " (this device)" : ""}, since{" "}
                  {new Date(device.since).toLocaleDateString()}
                </span>
                {device.endpoint !== thisEndpoint && (
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    disabled={removing !== ""}
                    aria-busy={removing === device.endpoint || undefined}
                    aria-label={`Turn off push on ${device.label}, on since ${new Date(device.since).toLocaleDateString()}`}
                    onClick={() => void removeDevice(device.endpoint)}
                  >
                    {removing === device.endpoint ? "Turning off…" : "Turn off"}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {problem && (
        <div className="alert alert-danger" role="alert">
          {problem}
        </div>
      )}
    </section>
  );
}
