import { useMemo } from "react";
import { Link, useRevalidator } from "react-router";
import type { ProductDeal } from "../../../core/posts/prices/presenter.ts";
import { MergeProductBody } from "../../../core/posts/prices/schema.ts";
import { apiCall } from "../../lib/api.ts";
import { messageOf, useApiForm } from "../../lib/api-form.ts";
import { formatDate, formatPrice } from "../../lib/format.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { Field, FormAlert, SubmitButton } from "../Form.tsx";
import { ConsoleKitForm } from "./ConsoleKitForm.tsx";

/**
 * The console's "same product" merge on a deal's edit page (record 0040): this deal and
 * every deal of its product join the product of another deal, named by its id or its address. The
 * deal page's price history then shows both; the merge is in the audit log.
 */
export function MergeProductForm({
  post,
  deals,
}: {
  post: { unique_id: string; title: string };
  /** The deals of this deal's product, itself included, oldest first. */
  deals: ProductDeal[];
}) {
  const revalidator = useRevalidator();
  const posted = usePostedConsoleForm("merge");
  const schema = useMemo(() => MergeProductBody.omit({ unique_id: true }), []);
  const form = useApiForm(
    schema,
    (values) =>
      apiCall("/admin/posts/merge_product", {
        unique_id: post.unique_id,
        into_unique_id: values.into_unique_id,
        reason: values.reason,
      }),
    async (result, form) => {
      form.show({ text: messageOf(result.data), tone: "success" }, { keep: true });
      form.reset();
      await revalidator.revalidate();
    },
    { initial: { into_unique_id: "", reason: "" }, posted, idPrefix: "merge" },
  );
  return (
    <ConsoleKitForm
      form={form}
      intent="merge"
      hidden={{ unique_id: post.unique_id }}
      className="console-section console-edit"
      aria-labelledby="merge-heading"
    >
      <h2 id="merge-heading">Same product as another deal</h2>
      <p className="console-note">
        Deals with the same link are one product already. When another deal sells the same thing
        under a different link, merge this deal&apos;s product into it: the deal pages then show one
        price history, and later deals of either link join it.
      </p>
      <h3 className="merge-product-deals-heading">
        {deals.length === 1
          ? "This deal is its product's only deal"
          : `This product's ${deals.length} deals`}
      </h3>
      <ul className="merge-product-deals">
        {deals.map((deal) => (
          <li key={deal.unique_id}>
            <Link to={deal.path}>{deal.title}</Link> ·{" "}
            {deal.price === null ? "no price" : formatPrice(deal.price, deal.currency)} ·{" "}
            <time dateTime={deal.date}>{formatDate(deal.date)}</time>
            {deal.status !== "active" && <> · {deal.status}</>}
            {deal.unique_id === post.unique_id && <> (this deal)</>}
          </li>
        ))}
      </ul>
      <FormAlert message={form.message} />
      <Field
        {...form.bind("into_unique_id")}
        label="The other deal's id or address"
        placeholder="e.g. /post/ab12cd34ef/…"
        required
        maxLength={2000}
      />
      <Field
        {...form.bind("reason")}
        label="Reason for the merge"
        mark="optional"
        maxLength={500}
        hint="Kept in the audit log with the merge."
      />
      <div className="console-edit-actions">
        <SubmitButton busy={form.busy}>Merge products</SubmitButton>
      </div>
    </ConsoleKitForm>
  );
}
