import type { Choice } from "../../core/submissions/presenter.ts";
import { DiscussionSchema, SUBMISSION_LIMITS } from "../../core/submissions/schema.ts";
import { ImageInput } from "./ImageInput.tsx";
import { RichTextEditor } from "./RichTextEditor.tsx";
import { FormNotice, SelectField, TextField, useSubmitForm } from "./SubmitFormParts.tsx";

const EMPTY = { forum_category_id: "", title: "", detail: "" };

const FIELD_ORDER = ["forum_category_id", "title", "image", "detail"] as const;

const FORM_ID = "discussion";

/** The Discussion tab of Submit Deals: a new topic in the educators' forum. */
export function SubmitDiscussionForm({
  userId,
  categories,
}: {
  userId: number;
  categories: Choice[];
}) {
  const { image, setImage, errors, setErrors, resetKey, submission, field, submit } = useSubmitForm(
    FORM_ID,
    EMPTY,
    "/save_discussion",
    FIELD_ORDER,
  );

  const busy = submission.sending || submission.submitted;
  return (
    <form
      className="submit-form"
      onSubmit={(event) => submit(event, DiscussionSchema, { user_id: String(userId) })}
      noValidate
      aria-label="Start a discussion"
    >
      <FormNotice notice={submission.notice} />
      <p className="form-note">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">with a star</span> are required.
      </p>
      <div className="submit-grid">
        <SelectField
          {...field("forum_category_id")}
          label="Category"
          placeholder="Select a category"
          choices={categories}
          required
        />
        <TextField {...field("title")} label="Title" maxLength={SUBMISSION_LIMITS.title} required />
      </div>
      <ImageInput
        id={`${FORM_ID}-image`}
        file={image}
        fileError={errors.image}
        onFileChange={(file, error) => {
          setImage(file);
          setErrors(({ image: _cleared, ...rest }) => (error ? { ...rest, image: error } : rest));
        }}
        progress={submission.progress}
        resetKey={resetKey}
      />
      <RichTextEditor {...field("detail")} label="Description" required resetKey={resetKey} />
      <div className="submit-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {submission.sending ? "Loading…" : "Submit Discussion"}
        </button>
      </div>
    </form>
  );
}
