import type { RouterContextProvider } from "react-router";
import { requestContext } from "#app-context";
import { FORM_INTENT_FIELD, MAX_UPLOAD_BYTES, SUBMIT_MESSAGES } from "../../core/constants.ts";
import { ValidationError } from "../../core/errors.ts";
import { presentCreatedPost } from "../../core/posts/submissions/presenter.ts";
import {
  DealSchema,
  DiscussionSchema,
  IMAGE_MESSAGES,
} from "../../core/posts/submissions/schema.ts";
import type { CreatedPost } from "../../core/posts/submissions/presenter.ts";
import {
  formActionOn,
  postedForm,
  unknownFormAnswer,
  type FormSuccess,
} from "./form-action.server.ts";
import { textToParagraphs } from "./plain-text.ts";
import { CORRECT_THE_FIELDS } from "./submit-post.ts";

/**
 * The page door of Submit Deals' two forms (docs/decisions/0079): the deal form
 * (`POST /api/save_deal`) and the discussion form (`POST /api/save_discussion`), told apart by
 * their `intent` field, each checked with its call's schema and run by its call's service, which
 * sanitises the description and checks the image's bytes. The post is multipart: the file is read
 * as the call reads it, and one over the size limit is the same field message. The description
 * comes from the editor's plain textarea, and is made into the same paragraphs as the editor's
 * fallback makes in the browser. The author is the session's user, never a `user_id` field.
 */

interface ActionArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
}

const FORMS = {
  deal: { schema: DealSchema, description: "deal_description" },
  discussion: { schema: DiscussionSchema, description: "detail" },
} as const;

/** The file field's bytes, as `readForm` of the JSON call gives them: none for an empty input. */
async function imageOf(file: File | undefined): Promise<Buffer | undefined> {
  if (!file || file.size === 0) return undefined;
  if (file.size > MAX_UPLOAD_BYTES) throw new ValidationError({ image: IMAGE_MESSAGES.tooLarge });
  return Buffer.from(await file.arrayBuffer());
}

/** The call's answer as the page says it: the message, the review note, a link to the post. */
function success(post: CreatedPost, message: string): FormSuccess {
  const answer = presentCreatedPost(post, message);
  const review = "review_message" in answer ? answer.review_message : undefined;
  return {
    message: review ? `${answer.message} ${review}` : answer.message,
    link: { url: answer.response.url, label: "View your post." },
  };
}

export async function submitPostAction({ context, request }: ActionArgs) {
  const { services, user } = context.get(requestContext);
  const { values: posted, files } = await postedForm(request);
  const { [FORM_INTENT_FIELD]: intent = "", user_id: _ignored, ...fields } = posted;
  if (intent !== "deal" && intent !== "discussion") {
    return unknownFormAnswer();
  }
  const { description } = FORMS[intent];
  const text = fields[description] ?? "";
  const values = { ...fields, [description]: textToParagraphs(text) };
  const options = {
    form: { intent },
    validationMessage: () => CORRECT_THE_FIELDS,
    failureLink: (error: { details: Record<string, unknown> }) => {
      const duplicate = error.details.duplicate as { url: string; title: string } | undefined;
      return duplicate ? { url: duplicate.url, label: `See “${duplicate.title}”.` } : undefined;
    },
  };
  const image = files.image;
  const outcome =
    intent === "deal"
      ? await formActionOn(
          values,
          DealSchema,
          async (input) =>
            success(
              await services.submissions.createDeal(user, {
                fields: input,
                image: await imageOf(image),
              }),
              SUBMIT_MESSAGES.dealSubmitted,
            ),
          options,
        )
      : await formActionOn(
          values,
          DiscussionSchema,
          async (input) =>
            success(
              await services.submissions.createDiscussion(user, {
                fields: input,
                image: await imageOf(image),
              }),
              SUBMIT_MESSAGES.discussionSubmitted,
            ),
          options,
        );
  // The form shows the text that was typed, not the paragraphs made of it.
  if (!outcome.data.ok) outcome.data.values[description] = text;
  return outcome;
}
