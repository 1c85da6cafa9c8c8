import { useId } from "react";
import { useNavigate } from "react-router";
import {
  defaultExpired,
  expiredFromSearchParams,
  type ListingKind,
} from "../../core/listings/schema.ts";
import type { ExpiredChoice } from "../../core/posts/expiry/schema.ts";

/**
 * A listing's URL with expired deals hidden or shown (`?expired=hide|show`): the listing's default
 * is left out of the URL, and the page goes back to 1, as with a new sort.
 */
export function expiredHref(
  params: URLSearchParams,
  kind: ListingKind,
  choice: ExpiredChoice,
): string {
  const next = new URLSearchParams(params);
  if (choice === defaultExpired(kind)) next.delete("expired");
  else next.set("expired", choice);
  next.delete("page");
  const query = next.toString();
  return query ? `?${query}` : "?";
}

/**
 * "Hide expired" on the store, category, new-deals and search pages (record 0037): a switch kept in
 * the URL, on by default for new deals. Expired deals shown are listed after the live ones.
 */
export function ExpiredToggle({ kind, params }: { kind: ListingKind; params: URLSearchParams }) {
  const id = useId();
  const navigate = useNavigate();
  const hidden = expiredFromSearchParams(params, kind) === "hide";
  return (
    <label className="expired-toggle" htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={hidden}
        onChange={(event) =>
          void navigate(expiredHref(params, kind, event.target.checked ? "hide" : "show"), {
            preventScrollReset: true,
          })
        }
      />
      Hide expired
    </label>
  );
}
