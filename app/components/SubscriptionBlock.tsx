import { Link } from "react-router";
import type { Subscription } from "../../core/people/profiles/presenter.ts";
import { formatDate, formatPrice } from "../lib/format.ts";

function SubscriptionCard({ subscription }: { subscription: Subscription }) {
  const noteId = `subscription-${subscription.id}-cancel-note`;
  const active = subscription.sub_status === "Active";
  return (
    <article className="subscription">
      <header className="subscription-header">
        <h3>{subscription.plan_name}</h3>
        <span className={active ? "status-badge status-active" : "status-badge"}>
          {subscription.sub_status}
        </span>
      </header>
      {subscription.plan_description && <p>{subscription.plan_description}</p>}
      <dl className="subscription-facts">
        <div>
          <dt>Price</dt>
          <dd>
            {formatPrice(Number(subscription.plan_price), subscription.plan_currency)} /{" "}
            {subscription.plan_interval}
          </dd>
        </div>
        <div>
          <dt>Start date</dt>
          <dd>{subscription.sub_start_date ? formatDate(subscription.sub_start_date) : "—"}</dd>
        </div>
        <div>
          <dt>End date</dt>
          <dd>{subscription.sub_end_date ? formatDate(subscription.sub_end_date) : "—"}</dd>
        </div>
      </dl>
      {active && (
        // The spec's Cancel button does nothing; rather than a button that silently fails, it is
        // shown disabled with the way that works (docs/decisions/0019-profiles-and-community.md).
        <div className="subscription-cancel">
          <button type="button" className="btn btn-outline" disabled aria-describedby={noteId}>
            Cancel
          </button>
          <p id={noteId} className="subscription-note">
            Online cancellation is not available yet. To cancel, please{" "}
            <Link to="/contact">contact us</Link>.
          </p>
        </div>
      )}
    </article>
  );
}

/** The subscription block of My Account: plan, price, dates and status. */
export function SubscriptionBlock({ subscriptions }: { subscriptions: Subscription[] }) {
  return (
    <section className="card profile-section" aria-labelledby="subscription-heading">
      <h2 id="subscription-heading">Subscription</h2>
      {subscriptions.length === 0 ? (
        <>
          <p className="no-data">No Data Found</p>
          <p>
            <Link to="/payment">See the subscription plan</Link>
          </p>
        </>
      ) : (
        subscriptions.map((subscription) => (
          <SubscriptionCard key={subscription.id} subscription={subscription} />
        ))
      )}
    </section>
  );
}
