import { useMemo } from "react";
import { Link, useLoaderData, useRevalidator } from "react-router";
import { requestContext } from "#app-context";
import { EDIT_LIMITS, PostUpdateBody } from "../../../core/posts/console-schema.ts";
import { orNull } from "../../../core/not-found.ts";
import { SUBMISSION_LIMITS } from "../../../core/posts/submissions/schema.ts";
import { Field, FormAlert, SubmitButton } from "../../components/Form.tsx";
import { RichTextEditor } from "../../components/RichTextEditor.tsx";
import { ConsoleKitForm } from "../../components/console/ConsoleKitForm.tsx";
import { MergeProductForm } from "../../components/console/MergeProductForm.tsx";
import { StatusBadge } from "../../components/console/StatusBadge.tsx";
import { apiCall } from "../../lib/api.ts";
import { messageOf, useApiForm } from "../../lib/api-form.ts";
import { requireConsoleUser } from "../../lib/console.server.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { changedFieldsSchema, changedValues, initialValues } from "../../lib/post-edit-values.ts";
import { consoleFormAction } from "../../lib/console-form.server.ts";
import { CONSOLE_FORMS } from "../../lib/console-forms.server.ts";
import { notFound } from "../../lib/errors.ts";
// The rich editor's look lives with the Submit Deals form, the editor's first home.
import "../../styles/submit.css";
import type { Route } from "./+types/post-edit";

export async function loader({ context, params }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const user = requireConsoleUser(ctx);
  const post =
    (await orNull(ctx.services.consolePosts.forEdit(user, params.uniqueId ?? ""))) ?? notFound();
  const options = await ctx.services.submissions.options();
  const productDeals =
    post.post_type === "d" ? await ctx.services.prices.productDeals(user, post.unique_id) : [];
  return { post, options, productDeals };
}

/** The page's forms posted without JavaScript (docs/decisions/0079). */
export const action = (args: Route.ActionArgs) => consoleFormAction(args, CONSOLE_FORMS.postEdit);

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `Edit “${loaderData.post.title}” – Console` : "Edit post – Console" },
];

const YES_NO = [
  { value: "false", label: "No" },
  { value: "true", label: "Yes" },
];

/** Edit any field of a deal or discussion; the changes go to the audit log, before and after. */
export default function EditPost() {
  const { post, options, productDeals } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const initial = useMemo(() => initialValues(post), [post]);
  const isDeal = post.post_type === "d";
  // The server's schema, over the fields that changed (a stored value is not checked again).
  const schema = useMemo(
    () => changedFieldsSchema(PostUpdateBody.omit({ unique_id: true }), initial),
    [initial],
  );
  const posted = usePostedConsoleForm("update");
  const form = useApiForm(
    schema,
    (values) =>
      apiCall("/admin/posts/update", {
        ...changedValues(values, initial),
        unique_id: post.unique_id,
      }),
    async (result, form) => {
      const path = (result.data as { response?: { path?: string } }).response?.path ?? post.path;
      form.show(
        {
          text: messageOf(result.data),
          tone: "success",
          link: { url: path, label: "View the post" },
        },
        { keep: true },
      );
      await revalidator.revalidate();
    },
    { initial, posted, idPrefix: "edit" },
  );
  const choices = (list: { id: number; title: string }[]) =>
    list.map((item) => ({ value: String(item.id), label: item.title }));

  return (
    <>
      <p className="console-back">
        <Link to="/admin/posts">← All posts</Link>
      </p>
      <h1>Edit {isDeal ? "deal" : "discussion"}</h1>
      <p className="console-note">
        <Link to={post.path}>{post.path}</Link> ·{" "}
        <StatusBadge status={post.status} label={post.status} />
      </p>
      <ConsoleKitForm
        form={form}
        intent="update"
        hidden={{ unique_id: post.unique_id }}
        className="console-section console-edit"
        aria-label={`Edit “${post.title}”`}
      >
        <FormAlert message={form.message} />
        <div className="console-edit-grid">
          <Field
            {...form.bind("title")}
            label="Title"
            maxLength={SUBMISSION_LIMITS.title}
            required
          />
          {isDeal ? (
            <>
              <Field
                {...form.bind("kind")}
                label="Type"
                control="select"
                options={[
                  { value: "deal", label: "Deal" },
                  { value: "coupon", label: "Coupon" },
                ]}
                hint="A deal with a coupon code is a coupon."
              />
              <Field
                {...form.bind("forum_category_id")}
                label="Deal category"
                control="select"
                placeholder="Select a deal category"
                options={choices(options.forumCategoryDeal)}
              />
              <Field
                {...form.bind("store_id")}
                label="Store"
                control="select"
                placeholder="Select a store"
                options={choices(options.stores)}
              />
              <Field
                {...form.bind("category_id")}
                label="Category"
                control="select"
                placeholder="Select a category"
                options={choices(options.categories)}
              />
              <Field
                {...form.bind("price")}
                label="Price ($)"
                type="number"
                inputMode="decimal"
                min={0}
                step="0.01"
                mark="optional"
              />
              <Field
                {...form.bind("list_price")}
                label="List price ($)"
                type="number"
                inputMode="decimal"
                min={0}
                step="0.01"
                mark="optional"
                hint="The price before the deal, shown crossed out."
              />
              <Field
                {...form.bind("discount")}
                label="Discount (% off)"
                type="number"
                inputMode="numeric"
                min={0}
                max={100}
                step={1}
                mark="optional"
                hint="Worked out from the price and list price when both are given."
              />
              <Field
                {...form.bind("link")}
                label="Deal link"
                type="url"
                inputMode="url"
                placeholder="https://"
                maxLength={SUBMISSION_LIMITS.link}
                mark="optional"
              />
              <Field
                {...form.bind("coupon_code")}
                label="Coupon code"
                maxLength={SUBMISSION_LIMITS.couponCode}
                mark="optional"
              />
              <Field
                {...form.bind("expiry")}
                label="Expiry date"
                type="date"
                mark="optional"
                hint="The deal ends with this day; empty for no end."
              />
              <Field
                {...form.bind("deal_badge")}
                label="Deal badge"
                maxLength={EDIT_LIMITS.dealBadge}
                mark="optional"
                hint="A short label on the deal's card, such as “Hot” or “Price drop”."
              />
            </>
          ) : (
            <Field
              {...form.bind("forum_category_id")}
              label="Category"
              control="select"
              placeholder="Select a category"
              options={choices(options.forumCategoryDiscussion)}
            />
          )}
          <Field {...form.bind("is_featured")} label="Featured" control="select" options={YES_NO} />
        </div>
        <RichTextEditor
          {...form.bind("description")}
          label="Description"
          required
          postedName="description"
        />
        <Field
          {...form.bind("reason")}
          label="Reason for the change"
          mark="optional"
          maxLength={500}
          hint="Kept in the audit log with the change."
        />
        <div className="console-edit-actions">
          <SubmitButton busy={form.busy}>Save changes</SubmitButton>
          <Link to="/admin/posts" className="btn console-btn-plain">
            Back to posts
          </Link>
        </div>
      </ConsoleKitForm>
      {isDeal && <MergeProductForm post={post} deals={productDeals} />}
    </>
  );
}
