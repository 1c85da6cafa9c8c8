import type { Choice } from "../../core/posts/submissions/presenter.ts";
import { DiscussionSchema, SUBMISSION_LIMITS } from "../../core/posts/submissions/schema.ts";
import type { FormOutcome } from "../lib/api-form.ts";
import { choicesOf, useSubmitPost } from "../lib/submit-post.ts";
import { Field } from "./Form.tsx";
import { SubmitPostForm } from "./SubmitPostForm.tsx";

const EMPTY = { forum_category_id: "", title: "", detail: "" };

const FORM_ID = "discussion";

/** The Discussion tab of Submit Deals: a new topic in the educators' forum. */
export function SubmitDiscussionForm({
  userId,
  csrfToken,
  posted,
  categories,
}: {
  userId: number;
  /** The form posted to the page without JavaScript (docs/decisions/0079). */
  csrfToken?: string;
  /** The page's answer to this form posted. */
  posted?: FormOutcome;
  categories: Choice[];
}) {
  const post = useSubmitPost({
    path: "/save_discussion",
    schema: DiscussionSchema,
    initial: EMPTY,
    formId: FORM_ID,
    description: "detail",
    posted,
    extra: { user_id: String(userId) },
  });
  const { form } = post;

  return (
    <SubmitPostForm
      post={post}
      csrfToken={csrfToken}
      intent="discussion"
      formId={FORM_ID}
      label="Start a discussion"
      description="detail"
      submitLabel="Submit Discussion"
    >
      <Field
        {...form.bind("forum_category_id")}
        label="Category"
        control="select"
        placeholder="Select a category"
        options={choicesOf(categories)}
        required
      />
      <Field {...form.bind("title")} label="Title" maxLength={SUBMISSION_LIMITS.title} required />
    </SubmitPostForm>
  );
}
