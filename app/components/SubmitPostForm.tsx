import type { ReactNode } from "react";
import { FORM_INTENT_FIELD } from "../../core/constants.ts";
import type { useSubmitPost } from "../lib/submit-post.ts";
import { FormAlert, KitForm, SubmitButton } from "./Form.tsx";
import { ImageInput } from "./ImageInput.tsx";
import { RichTextEditor } from "./RichTextEditor.tsx";

type SubmitPost<V extends Record<string, string>> = ReturnType<typeof useSubmitPost<V>>;

/**
 * The frame both tabs of Submit Deals share: the notice, the required-fields note, the form's own
 * fields (`children`) in the grid, the picture, the description and the submit button. A kit
 * form: without JavaScript it posts to the page as multipart, with its `intent` (the tab's form),
 * the description's plain text and the chosen file (app/routes/submit-deal.tsx).
 */
export function SubmitPostForm<V extends Record<string, string>>({
  post: { form, image, chooseImage, progress, postedText },
  csrfToken,
  intent,
  formId,
  label,
  imageLink,
  description,
  submitLabel,
  children,
}: {
  post: SubmitPost<V>;
  csrfToken?: string;
  /** Which of the page's forms this is, for its action. */
  intent: "deal" | "discussion";
  formId: string;
  /** The form's accessible name. */
  label: string;
  /** The deal form's image link field; the discussion form takes a file only. */
  imageLink?: ReturnType<SubmitPost<V>["form"]["bind"]>;
  description: keyof V & string;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <KitForm
      form={form}
      csrfToken={csrfToken}
      encType="multipart/form-data"
      className="submit-form"
      aria-label={label}
    >
      <input type="hidden" name={FORM_INTENT_FIELD} value={intent} />
      <FormAlert message={form.message} className="submit-notice" />
      <p className="form-note">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">with a star</span> are required.
      </p>
      <div className="submit-grid">{children}</div>
      <ImageInput
        id={`${formId}-image`}
        file={image}
        fileError={form.errors.image}
        onFileChange={chooseImage}
        link={imageLink}
        progress={progress}
        resetKey={form.resetKey}
        name="image"
      />
      <RichTextEditor
        {...form.bind(description)}
        label="Description"
        required
        resetKey={form.resetKey}
        plainTextName={description}
        postedText={postedText}
      />
      <div className="submit-actions">
        <SubmitButton busy={form.busy} disabled={form.done}>
          {submitLabel}
        </SubmitButton>
      </div>
    </KitForm>
  );
}
