/**
 * Taps and submits made before React has hydrated the page (docs/decisions/0058).
 *
 * The page's scripts are asked for after its first paint (app/lib/scripts-after-paint.server.ts),
 * so on a slow phone there is a moment when the page is on screen and its buttons and forms have
 * no handlers yet. A small script in the head (`HELD_INPUT_SCRIPT`) holds what would go wrong in
 * that moment, and the root gives it back once hydrated (`releaseHeldInput`):
 *
 * - the submit of a form with no `action`: such a form is sent by its script, and the browser's
 *   own submit would reload the page with the values in its address (a password among them);
 * - a tap on a `type="button"` button: its handler does not exist yet.
 *
 * A form with an `action` (sign-in, sign-out, search) posts or navigates by itself, and a link
 * follows itself: both are left alone. Each held form or button is given back once, in order.
 * Meanwhile the tapped button shows that it is waiting (`HELD_MARK`), so a tap is not taken for
 * lost and repeated.
 * Released, the global is no longer a function (the browser tests wait for that).
 */
export const HELD_INPUT_GLOBAL = "__chalkHeldInput";

/**
 * The attribute a held button (or a held form's submit button) wears until it is given back:
 * styled as waiting (app/styles/app.css), and `aria-busy` says so to assistive technology.
 */
export const HELD_MARK = "data-held";

/** The head script. ES5, no dependencies: it runs before any module. */
export const HELD_INPUT_SCRIPT =
  "(function(w,d){var held=[],on=1;" +
  "function hold(e){if(!on)return;var t=e.target,run,m;" +
  "if(e.type==='submit'){if(t.hasAttribute('action'))return;" +
  "var s=e.submitter||null;m=s||t.querySelector('[type=submit]');" +
  "run=function(){t.requestSubmit?t.requestSubmit(s):t.submit()}}" +
  "else{t=t.closest&&t.closest('button');if(!t||t.type!=='button'||t.disabled)return;" +
  "m=t;run=function(){t.click()}}" +
  "e.preventDefault();e.stopImmediatePropagation();" +
  "for(var i=0;i<held.length;i++)if(held[i].t===t)return;" +
  "var b=m&&m.getAttribute('aria-busy');" +
  `if(m){m.setAttribute('${HELD_MARK}','');m.setAttribute('aria-busy','true')}` +
  "held.push({t:t,run:run,m:m,b:b})}" +
  "d.addEventListener('submit',hold,true);d.addEventListener('click',hold,true);" +
  `w.${HELD_INPUT_GLOBAL}=function(){on=0;w.${HELD_INPUT_GLOBAL}='released';var h=held;held=[];` +
  "for(var i=0;i<h.length;i++){var x=h[i];" +
  `if(x.m){x.m.removeAttribute('${HELD_MARK}');` +
  "x.b===null?x.m.removeAttribute('aria-busy'):x.m.setAttribute('aria-busy',x.b)}x.run()}}" +
  "})(window,document)";

/**
 * Stops holding and gives back what was held. Called once the page is hydrated, a task later, so
 * that the forms have first taken up what was typed before (`useApiForm`).
 */
export function releaseHeldInput() {
  const release = (window as unknown as Record<string, unknown>)[HELD_INPUT_GLOBAL];
  // Once released it is a string, which setTimeout would run as code.
  if (typeof release === "function") setTimeout(release, 0);
}
