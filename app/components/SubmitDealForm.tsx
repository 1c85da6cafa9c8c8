import { DEFAULT_DEAL_TYPE } from "../../core/constants.ts";
import type { Choice } from "../../core/posts/submissions/presenter.ts";
import {
  SUBMISSION_LIMITS,
  createDealSchema,
  earliestExpiryDate,
} from "../../core/posts/submissions/schema.ts";
import type { FormOutcome } from "../lib/api-form.ts";
import { useLinkPreview } from "../lib/link-preview.ts";
import { choicesOf, useSubmitPost } from "../lib/submit-post.ts";
import { Field } from "./Form.tsx";
import { LinkPreviewStatus } from "./LinkPreviewStatus.tsx";
import { SubmitPostForm } from "./SubmitPostForm.tsx";

const EMPTY = {
  deal_category: "",
  store_id: "",
  category_id: "",
  title: "",
  coupon_code: "",
  price: "",
  discount: "",
  link: "",
  expiry: "",
  deal_image: "",
  deal_description: "",
};

const FORM_ID = "deal";

function localToday(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

interface SubmitDealFormProps {
  userId: number;
  /** The form posted to the page without JavaScript (docs/decisions/0079). */
  csrfToken?: string;
  /** The page's answer to this form posted. */
  posted?: FormOutcome;
  dealCategories: Choice[];
  stores: Choice[];
  categories: Choice[];
}

/** The Deal tab of Submit Deals: a deal, or a coupon when a coupon code is given. */
export function SubmitDealForm({
  userId,
  csrfToken,
  posted,
  dealCategories,
  stores,
  categories,
}: SubmitDealFormProps) {
  const post = useSubmitPost({
    path: "/save_deal",
    // The earliest expiry date is today's, so the schema is made when the form is sent.
    schema: () => createDealSchema(earliestExpiryDate(new Date())),
    initial: EMPTY,
    formId: FORM_ID,
    description: "deal_description",
    posted,
    extra: { user_id: String(userId), type: DEFAULT_DEAL_TYPE },
  });
  const { form } = post;
  // Post from a link (docs/decisions/0110-post-from-a-link.md): with JavaScript, a pasted link
  // fills the fields the member has not typed into; without it the field is a plain link field.
  const linkPreview = useLinkPreview(form, stores);

  return (
    <SubmitPostForm
      post={post}
      csrfToken={csrfToken}
      intent="deal"
      formId={FORM_ID}
      label="Submit a deal"
      imageLink={form.bind("deal_image")}
      description="deal_description"
      submitLabel="Submit Deal"
    >
      {/* React's paste and blur bubble: the link field's reach its preview from here. */}
      <div className="deal-link-field" onPaste={linkPreview.onPaste} onBlur={linkPreview.onBlur}>
        <Field
          {...form.bind("link")}
          label="Deal link"
          type="url"
          inputMode="url"
          placeholder="https://"
          maxLength={SUBMISSION_LIMITS.link}
          hint="Paste the shop's link first: the title, price, store, coupon code and picture are filled in from its page."
        />
        <LinkPreviewStatus id={`${FORM_ID}-link-preview`} state={linkPreview.state} />
      </div>
      <Field
        {...form.bind("deal_category")}
        label="Deal category"
        control="select"
        placeholder="Select a deal category"
        options={choicesOf(dealCategories)}
        required
      />
      <Field
        {...form.bind("store_id")}
        label="Store"
        control="select"
        placeholder="Select a store"
        options={choicesOf(stores)}
        required
      />
      <Field
        {...form.bind("category_id")}
        label="Category"
        control="select"
        placeholder="Select a category"
        options={choicesOf(categories)}
        required
      />
      <Field {...form.bind("title")} label="Title" maxLength={SUBMISSION_LIMITS.title} required />
      <Field
        {...form.bind("price")}
        label="Price ($)"
        type="number"
        inputMode="decimal"
        min={0}
        step="0.01"
      />
      <Field
        {...form.bind("discount")}
        label="Discount (% off)"
        type="number"
        inputMode="numeric"
        min={0}
        max={100}
        step={1}
      />
      <Field {...form.bind("expiry")} label="Expiry date" type="date" min={localToday()} />
      <Field
        {...form.bind("coupon_code")}
        label="Coupon code"
        maxLength={SUBMISSION_LIMITS.couponCode}
        hint="For a coupon: the code shoppers enter at checkout."
      />
    </SubmitPostForm>
  );
}
