import type { RouterContextProvider } from "react-router";
import { requestContext } from "#app-context";
import { FORM_INTENT_FIELD } from "../../core/constants.ts";
import { ReportBody } from "../../core/moderation/schema.ts";
import { AddCommentSchema } from "../../core/posts/comments/schema.ts";
import { CommentLikeSchema } from "../../core/posts/comments/likes/schema.ts";
import { formActionOn, postedValues, unknownFormAnswer } from "./form-action.server.ts";

/**
 * The page door of the post pages' forms (docs/decisions/0079): the comment and reply boxes
 * (`POST /api/product_add_comment`), the comments' Like buttons (`POST /api/comment_like`, record
 * 0092) and the report dialog (`POST /api/report`), told apart by
 * their `intent` field, each checked with its call's schema and run by its call's service. The
 * user is the session's; a `user_id` in the form is ignored, and a visitor is refused by the
 * service (401), as the calls refuse one.
 */

interface ActionArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
}

/** The fields a form may not choose: who acts is the session's user. */
function withoutUser({ user_id: _ignored, ...values }: Record<string, string>) {
  return values;
}

async function act(
  { context }: ActionArgs,
  intent: string,
  values: Record<string, string>,
  /** The intents this page has forms for. */
  intents: readonly string[],
) {
  const { services, user } = context.get(requestContext);
  if (intent === "comment" && intents.includes("comment")) {
    const answer = await formActionOn(
      values,
      AddCommentSchema,
      async (input) => (await services.comments.add(user, input)).message,
      { form: { intent, comment_id: values.comment_id ?? "" } },
    );
    // As the box shows a failed call: its message under the text, the box's own.
    const { ok, errors, message } = answer.data;
    if (!ok && message && !Object.keys(errors).length)
      answer.data.errors = { comment_text: message };
    return answer;
  }
  if (intent === "comment_like" && intents.includes("comment_like")) {
    return formActionOn(
      values,
      CommentLikeSchema,
      async (input) => (await services.commentLikes.toggle(user, input)).message,
      { form: { intent, comment_id: values.comment_id ?? "" } },
    );
  }
  if (intent === "report" && intents.includes("report")) {
    return formActionOn(
      values,
      ReportBody,
      async (input) => (await services.moderation.report(user, input)).message,
      {
        form: { intent, item_type: values.item_type ?? "", item_id: values.item_id ?? "" },
      },
    );
  }
  return unknownFormAnswer();
}

/** The action of a page whose forms are `intents` (the post pages: comments and reports). */
export async function pageFormsAction(args: ActionArgs, intents: readonly string[]) {
  const { [FORM_INTENT_FIELD]: intent = "", ...values } = await postedValues(args.request);
  return act(args, intent, withoutUser(values), intents);
}
