import type { Choice } from "../../core/submissions/presenter.ts";
import { DiscussionSchema, SUBMISSION_LIMITS } from "../../core/submissions/schema.ts";
import { choicesOf, useSubmitPost } from "../lib/submit-post.ts";
import { Field, FormAlert, SubmitButton } from "./Form.tsx";
import { ImageInput } from "./ImageInput.tsx";
import { RichTextEditor } from "./RichTextEditor.tsx";

const EMPTY = { forum_category_id: "", title: "", detail: "" };

const FORM_ID = "discussion";

/** The Discussion tab of Submit Deals: a new topic in the educators' forum. */
export function SubmitDiscussionForm({
  userId,
  categories,
}: {
  userId: number;
  categories: Choice[];
}) {
  const { form, image, chooseImage, progress } = useSubmitPost({
    path: "/save_discussion",
    schema: DiscussionSchema,
    initial: EMPTY,
    formId: FORM_ID,
    extra: { user_id: String(userId) },
  });

  return (
    <form
      ref={form.ref}
      className="submit-form"
      onSubmit={form.submit}
      noValidate
      aria-label="Start a discussion"
    >
      <FormAlert message={form.message} className="submit-notice" />
      <p className="form-note">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">with a star</span> are required.
      </p>
      <div className="submit-grid">
        <Field
          {...form.bind("forum_category_id")}
          label="Category"
          control="select"
          placeholder="Select a category"
          options={choicesOf(categories)}
          required
        />
        <Field {...form.bind("title")} label="Title" maxLength={SUBMISSION_LIMITS.title} required />
      </div>
      <ImageInput
        id={`${FORM_ID}-image`}
        file={image}
        fileError={form.errors.image}
        onFileChange={chooseImage}
        progress={progress}
        resetKey={form.resetKey}
      />
      <RichTextEditor
        {...form.bind("detail")}
        label="Description"
        required
        resetKey={form.resetKey}
      />
      <div className="submit-actions">
        <SubmitButton busy={form.busy} disabled={form.done}>
          Submit Discussion
        </SubmitButton>
      </div>
    </form>
  );
}
