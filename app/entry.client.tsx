import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

/**
 * Runs `start` once the browser has painted the server's HTML. On a slow phone, hydrating the page
 * (React's work over every card, then the effects) takes hundreds of milliseconds of main thread;
 * started before the first paint, it holds the page blank for all of it. The HTML already works
 * without JavaScript (links and forms), so it is shown first. A hidden tab paints no frames, so
 * there it starts at once.
 */
function afterFirstPaint(start: () => void) {
  if (document.visibilityState === "hidden") start();
  else requestAnimationFrame(() => setTimeout(start, 0));
}

afterFirstPaint(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
