import { DEFAULT_DEAL_TYPE } from "../../core/constants.ts";
import type { Choice } from "../../core/submissions/presenter.ts";
import {
  SUBMISSION_LIMITS,
  createDealSchema,
  earliestExpiryDate,
} from "../../core/submissions/schema.ts";
import { ImageInput } from "./ImageInput.tsx";
import { RichTextEditor } from "./RichTextEditor.tsx";
import { FormNotice, SelectField, TextField, useSubmitForm } from "./SubmitFormParts.tsx";

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

/** The order fields appear in, for moving focus to the first one with a message. */
const FIELD_ORDER = [
  "deal_category",
  "store_id",
  "category_id",
  "title",
  "coupon_code",
  "price",
  "discount",
  "link",
  "expiry",
  "image",
  "deal_image",
  "deal_description",
] as const;

const FORM_ID = "deal";

function localToday(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

interface SubmitDealFormProps {
  userId: number;
  dealCategories: Choice[];
  stores: Choice[];
  categories: Choice[];
}

/** The Deal tab of Submit Deals: a deal, or a coupon when a coupon code is given. */
export function SubmitDealForm({
  userId,
  dealCategories,
  stores,
  categories,
}: SubmitDealFormProps) {
  const { values, image, setImage, errors, setErrors, resetKey, submission, field, submit } =
    useSubmitForm(FORM_ID, EMPTY, "/save_deal", FIELD_ORDER);

  const busy = submission.sending || submission.submitted;
  return (
    <form
      className="submit-form"
      onSubmit={(event) =>
        submit(event, createDealSchema(earliestExpiryDate(new Date())), {
          user_id: String(userId),
          type: DEFAULT_DEAL_TYPE,
        })
      }
      noValidate
      aria-label="Submit a deal"
    >
      <FormNotice notice={submission.notice} />
      <p className="form-note">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">with a star</span> are required.
      </p>
      <div className="submit-grid">
        <SelectField
          {...field("deal_category")}
          label="Deal category"
          placeholder="Select a deal category"
          choices={dealCategories}
          required
        />
        <SelectField
          {...field("store_id")}
          label="Store"
          placeholder="Select a store"
          choices={stores}
          required
        />
        <SelectField
          {...field("category_id")}
          label="Category"
          placeholder="Select a category"
          choices={categories}
          required
        />
        <TextField {...field("title")} label="Title" maxLength={SUBMISSION_LIMITS.title} required />
        <TextField
          {...field("price")}
          label="Price ($)"
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
        />
        <TextField
          {...field("discount")}
          label="Discount (% off)"
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          step={1}
        />
        <TextField
          {...field("link")}
          label="Deal link"
          type="url"
          inputMode="url"
          placeholder="https://"
          maxLength={SUBMISSION_LIMITS.link}
        />
        <TextField {...field("expiry")} label="Expiry date" type="date" min={localToday()} />
        <TextField
          {...field("coupon_code")}
          label="Coupon code"
          maxLength={SUBMISSION_LIMITS.couponCode}
          hint="For a coupon: the code shoppers enter at checkout."
        />
      </div>
      <ImageInput
        id={`${FORM_ID}-image`}
        file={image}
        fileError={errors.image}
        onFileChange={(file, error) => {
          setImage(file);
          setErrors(({ image: _cleared, ...rest }) => (error ? { ...rest, image: error } : rest));
        }}
        link={{
          value: values.deal_image,
          onChange: field("deal_image").onChange,
          error: errors.deal_image,
        }}
        progress={submission.progress}
        resetKey={resetKey}
      />
      <RichTextEditor
        {...field("deal_description")}
        label="Description"
        required
        resetKey={resetKey}
      />
      <div className="submit-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {submission.sending ? "Loading…" : "Submit Deal"}
        </button>
      </div>
    </form>
  );
}
