import type { FormEvent } from "react";
import { fieldErrors } from "../../core/http/validate.ts";
import type { Choice } from "../../core/submissions/presenter.ts";
import { DiscussionSchema, SUBMISSION_LIMITS } from "../../core/submissions/schema.ts";
import { ImageInput } from "./ImageInput.tsx";
import { RichTextEditor } from "./RichTextEditor.tsx";
import {
  FormNotice,
  SelectField,
  TextField,
  focusFirstError,
  useSubmitForm,
  type FieldErrors,
} from "./SubmitFormParts.tsx";

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
  const { values, image, setImage, errors, setErrors, resetKey, submission, field } = useSubmitForm(
    FORM_ID,
    EMPTY,
    "/save_discussion",
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: FieldErrors = {
      ...fieldErrors(DiscussionSchema, values),
      ...(errors.image ? { image: errors.image } : {}),
    };
    if (Object.keys(found).length) {
      setErrors(found);
      submission.setNotice({ kind: "danger", text: "Please correct the fields marked below." });
      focusFirstError(FORM_ID, found, FIELD_ORDER);
      return;
    }
    const form = new FormData();
    form.append("user_id", String(userId));
    for (const [name, value] of Object.entries(values)) form.append(name, value);
    if (image) form.append("image", image);
    const serverErrors = await submission.send(form, Boolean(image));
    if (serverErrors) {
      setErrors(serverErrors);
      focusFirstError(FORM_ID, serverErrors, FIELD_ORDER);
    }
  }

  const busy = submission.sending || submission.submitted;
  return (
    <form className="submit-form" onSubmit={onSubmit} noValidate aria-label="Start a discussion">
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
