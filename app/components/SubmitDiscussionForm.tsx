import type { Choice } from "../../core/posts/submissions/presenter.ts";
import { DiscussionSchema, SUBMISSION_LIMITS } from "../../core/posts/submissions/schema.ts";
import { choicesOf, useSubmitPost } from "../lib/submit-post.ts";
import { Field } from "./Form.tsx";
import { SubmitPostForm } from "./SubmitPostForm.tsx";

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
  const post = useSubmitPost({
    path: "/save_discussion",
    schema: DiscussionSchema,
    initial: EMPTY,
    formId: FORM_ID,
    extra: { user_id: String(userId) },
  });
  const { form } = post;

  return (
    <SubmitPostForm
      post={post}
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
