import { useContext } from "react";
import { preload } from "react-dom";
import { UNSAFE_FrameworkContext, useMatches } from "react-router";

/**
 * Asks for the page's style sheets before its scripts. React writes the `<link rel="modulepreload">`s
 * of `<Scripts>` (27 on the home page) into the head ahead of `<Links>`' style sheets, so on an
 * HTTP/1.1 connection the browser's six sockets went to scripts while the sheets that block the
 * first paint waited their turn. React writes preloads made with `preload()` ahead of those module
 * preloads. The sheets are the ones `<Links>` renders: each matched route's own, from the build's
 * manifest (docs/decisions/0056).
 */
export function StyleSheetsFirst() {
  const framework = useContext(UNSAFE_FrameworkContext);
  const matches = useMatches();
  for (const match of matches) {
    for (const href of framework?.manifest.routes[match.id]?.css ?? []) {
      preload(href, { as: "style" });
    }
  }
  return null;
}
