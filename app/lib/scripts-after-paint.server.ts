import { Transform, type TransformCallback } from "node:stream";
import { HELD_INPUT_SCRIPT } from "./held-input.ts";

const HEAD_END = Buffer.from("</head>");
/** A module preload as React writes `<Scripts>`' links into the head (`rel` and `href` first). */
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
/** The end of the opening tag of `<Scripts>`' module script, which imports the page's modules. */
const MODULE_SCRIPT = Buffer.from(' type="module" async="">');
/** The same script, made inert until the page has been painted. */
const INERT_SCRIPT = Buffer.from(' type="text/x-after-paint">');
const SCRIPT_END = Buffer.from("</script>");

/**
 * The code of the script written after the inert one: once the browser has painted the page, it
 * adds the module preloads back and swaps the inert script for a live module script with the same
 * code and nonce. A hidden tab paints no frames, so there it starts at once.
 */
function starter(modules: string[]): string {
  return (
    "(function(d,h){function s(){h.forEach(function(u){var l=document.createElement('link');" +
    "l.rel='modulepreload';l.href=u;l.nonce=d.nonce;document.head.appendChild(l)});" +
    "var m=document.createElement('script');m.type='module';m.nonce=d.nonce;m.textContent=d.textContent;" +
    "d.replaceWith(m)}document.visibilityState==='hidden'?s():requestAnimationFrame(function(){setTimeout(s,0)})})" +
    `(document.currentScript.previousElementSibling,${JSON.stringify(modules).replace(/</g, "\\u003c")})`
  );
}

/**
 * Lets the page be painted before its JavaScript is asked for (docs/decisions/0057), as the HTML
 * streams out:
 *
 * - the head's `<link rel="modulepreload">`s, which React hoists there from React Router's
 *   `<Scripts>`, are taken out;
 * - `<Scripts>`' module script is written inert, and a small script after it starts both once the
 *   first frame is painted.
 *
 * A phone on a slow link then spends the link on the style sheets and the main picture that the
 * first paint waits for, not on 110 kB of scripts, and its main thread paints before it parses,
 * evaluates and hydrates. Links and forms with an action work before its scripts run; a script at
 * the end of the head holds other taps and submits until they have (app/lib/held-input.ts).
 * React Router writes these tags with no way to change them, hence a pass over the bytes:
 * everything else passes through untouched, however the stream is cut.
 *
 * What React writes in one pass goes on as one chunk, when it calls `flush()` at the pass's end.
 * `done` runs when React has written the whole page (the entry's time-out is cleared there).
 */
export function scriptsAfterFirstPaint(
  nonce: string,
  done: () => void,
): Transform & { flush(): void } {
  type Stage = "head" | "module-script" | "script-end" | "rest";
  let stage: Stage = "head";
  let pending: Buffer = Buffer.alloc(0);
  let modules: string[] = [];

  /** Moves through the stages as far as `pending` allows; returns the bytes that may go out. */
  function advance(): Buffer[] {
    const out: Buffer[] = [];
    for (;;) {
      if (stage === "head") {
        const end = pending.indexOf(HEAD_END);
        if (end < 0) return out;
        const head = pending.subarray(0, end).toString("utf8");
        const kept = head.replace(MODULE_PRELOAD, (_tag, href: string) => {
          modules.push(href);
          return "";
        });
        out.push(Buffer.from(kept, "utf8"));
        // What is tapped or submitted before hydration waits for it (app/lib/held-input.ts).
        if (modules.length > 0) {
          out.push(Buffer.from(`<script nonce="${nonce}">${HELD_INPUT_SCRIPT}</script>`, "utf8"));
        }
        pending = pending.subarray(end);
        stage = modules.length > 0 ? "module-script" : "rest";
      } else if (stage === "module-script") {
        const at = pending.indexOf(MODULE_SCRIPT);
        if (at < 0) return out.concat(keepTail(MODULE_SCRIPT.length - 1));
        out.push(pending.subarray(0, at), INERT_SCRIPT);
        pending = pending.subarray(at + MODULE_SCRIPT.length);
        stage = "script-end";
      } else if (stage === "script-end") {
        const at = pending.indexOf(SCRIPT_END);
        if (at < 0) return out.concat(keepTail(SCRIPT_END.length - 1));
        const end = at + SCRIPT_END.length;
        out.push(
          pending.subarray(0, end),
          Buffer.from(`<script nonce="${nonce}">${starter(modules)}</script>`, "utf8"),
        );
        pending = pending.subarray(end);
        modules = [];
        stage = "rest";
      } else {
        out.push(pending);
        pending = Buffer.alloc(0);
        return out;
      }
    }
  }

  /** Sends all of `pending` but its last `length` bytes, which may begin the tag looked for. */
  function keepTail(length: number): Buffer[] {
    const cut = Math.max(0, pending.length - length);
    const sent = pending.subarray(0, cut);
    pending = pending.subarray(cut);
    return sent.length > 0 ? [sent] : [];
  }

  /** What has gone through since React last finished a pass, sent as one chunk by `release`. */
  let held: Buffer[] = [];

  const stream = new Transform({
    transform(chunk: Buffer | string, _encoding, callback: TransformCallback) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      pending = pending.length > 0 ? Buffer.concat([pending, bytes]) : bytes;
      held.push(...advance());
      callback();
    },
    flush(callback: TransformCallback) {
      if (pending.length > 0) held.push(pending);
      pending = Buffer.alloc(0);
      release();
      done();
      callback();
    },
  });

  function release() {
    if (held.length === 0) return;
    stream.push(held.length === 1 ? held[0] : Buffer.concat(held));
    held = [];
  }

  // React writes a pass of the page in views of 4 kB and then calls its destination's flush(), as
  // it would a compression stream's: here that sends the pass on as one chunk. Each chunk costs a
  // trip through the web stream of the Response, its reading back into a Node stream, and a
  // round of the compressor on the thread pool; the home page was 23 of them, now 3.
  return Object.assign(stream, { flush: release });
}
