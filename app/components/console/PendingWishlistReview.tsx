import type { PendingWishlistEntry } from "../../../core/people/educators/presenter.ts";
import { formatDate } from "../../lib/format.ts";
import { ConsoleAction } from "./ConsoleAction.tsx";
import { ConsoleTable } from "./ConsoleTable.tsx";

/**
 * /admin/wishlist's entries that verified educators sent: none is public until a moderator
 * approves it (it then joins the end of the list below); a rejection's reason is told to them.
 */
export function PendingWishlistReview({ items }: { items: PendingWishlistEntry[] }) {
  return (
    <section className="console-section" aria-labelledby="pending-wishlist-heading">
      <h2 id="pending-wishlist-heading" className="console-section-title">
        Waiting for approval <span className="console-badge">{items.length}</span>
      </h2>
      <ConsoleTable
        caption="Wishlists teachers sent, oldest first"
        rows={items}
        rowKey={(item) => item.id}
        empty="No wishlists waiting for approval."
        columns={[
          {
            header: "Teacher",
            cell: (item) => (
              <>
                {item.first_name} {item.last_name}
                <br />
                <small>
                  sent by {item.user_name || "a former member"} on {formatDate(item.created_at)}
                </small>
              </>
            ),
          },
          { header: "School", cell: (item) => item.school_location },
          {
            header: "Wishlist",
            cell: (item) => (
              <a href={item.amazon_wishlist} target="_blank" rel="noreferrer noopener nofollow">
                Open on Amazon<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            ),
          },
          {
            header: "Actions",
            actions: true,
            cell: (item) => (
              <div className="console-row-actions">
                <ConsoleAction
                  call="/admin/wishlist/approve"
                  body={{ id: item.id }}
                  label="Approve"
                  tone="primary"
                  confirm={`Show ${item.first_name} ${item.last_name}'s wishlist on the home page?`}
                />
                <ConsoleAction
                  call="/admin/wishlist/reject"
                  body={{ id: item.id }}
                  label="Reject"
                  tone="danger"
                  askReason
                  confirm={`Reject ${item.first_name} ${item.last_name}'s wishlist? They are told your reason.`}
                />
              </div>
            ),
          },
        ]}
      />
    </section>
  );
}
