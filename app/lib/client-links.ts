import type { MouseEvent } from "react";
import { useNavigate } from "react-router";

/**
 * One click handler that gives every plain `<a href>` inside an element the client navigation of
 * React Router's `<Link>`. Deal grids use it: a `<Link>` resolves its path and builds its own
 * handler on every render, which was a measurable share of a listing page's server render at two
 * links a card (measured on 2026-11-23; `git log -p docs/benchmarks.md`). A click with a modifier
 * key or another button, a link to another site, a download or another target is left to the
 * browser, as `<Link>` does.
 */
export function useClientLinks(): (event: MouseEvent<HTMLElement>) => void {
  const navigate = useNavigate();
  return (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    const anchor = (event.target as Element).closest?.("a[href]");
    if (!(anchor instanceof HTMLAnchorElement) || !event.currentTarget.contains(anchor)) return;
    if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return;
    const url = new URL(anchor.href, window.location.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  };
}
