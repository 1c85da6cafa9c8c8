import { useSearchParams } from "react-router";

/**
 * The console list's address and the form it shows (`?new=…`, `?edit=…`, `?view=…`): every state
 * lives in the URL, so a page reloads, links and goes back as it looks.
 */
export function useConsoleUrl() {
  const [params] = useSearchParams();
  /** The list's address with `change` applied; the form's parameters are dropped unless given. */
  function listHref(change: Record<string, string | null> = {}) {
    const next = new URLSearchParams(params);
    for (const key of ["new", "edit", "view"]) next.delete(key);
    for (const [key, value] of Object.entries(change)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    const query = next.toString();
    return query ? `?${query}` : "?";
  }
  return {
    params,
    listHref,
    creating: params.get("new"),
    editing: params.get("edit"),
    viewing: params.get("view"),
  };
}
