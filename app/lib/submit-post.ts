import { useState } from "react";
import { useNavigate } from "react-router";
import type { z } from "zod";
import { DELAYS_MS } from "../../core/constants.ts";
import type { Choice } from "../../core/posts/submissions/presenter.ts";
import { useApiForm, type ApiAnswer, type FormOutcome } from "./api-form.ts";
import { textToParagraphs } from "./plain-text.ts";
import { useUpload } from "./upload.ts";

/** A Choice as a Field's select option. */
export function choicesOf(choices: Choice[]) {
  return choices.map((choice) => ({ value: String(choice.id), label: choice.title }));
}

interface SubmitAnswer extends ApiAnswer {
  message?: string;
  /** The post is held for review: what its author is told (core/moderation/holding.ts). */
  review_message?: string;
  response?: { url: string; title: string };
  duplicate?: { url: string; title: string };
}

/** The headline of a form with field messages, from the browser's check or the server's. */
export const CORRECT_THE_FIELDS = "Please correct the fields marked below.";

function scrollToTop() {
  window.scrollTo({ top: 0, behavior: "smooth" });
}

/**
 * The Submit Deals page's two forms on the form kit: the values and a chosen image go as multipart
 * with upload progress. On success the message (with a link to the new post) shows, the page
 * scrolls to the top and after 3 s the message clears and the form resets (the spec); a duplicate
 * deal links to the live one; a lost session goes to /login.
 *
 * Before hydration or without JavaScript the form posts to the page (docs/decisions/0079), the
 * description as the editor's plain textarea holds it; `posted` is the page's answer to this form.
 */
export function useSubmitPost<V extends Record<string, string>>(options: {
  path: string;
  schema: z.ZodType | (() => z.ZodType);
  initial: V;
  formId: string;
  /** Sent with the values: user_id, the deal type. */
  extra: Record<string, string>;
  /** The rich-text field, which the page post carries as plain text. */
  description: keyof V & string;
  posted?: FormOutcome;
}) {
  const navigate = useNavigate();
  const upload = useUpload();
  const [image, setImage] = useState<File | null>(null);
  // The editor's value is HTML: the posted plain text becomes the paragraphs the action made of it.
  const postedText = options.posted?.values[options.description];
  const posted = options.posted && {
    ...options.posted,
    values: { ...options.posted.values, [options.description]: textToParagraphs(postedText ?? "") },
  };

  const form = useApiForm<V, SubmitAnswer>(
    options.schema,
    (values) => {
      const body = new FormData();
      for (const [name, value] of Object.entries({ ...options.extra, ...values })) {
        body.append(name, value);
      }
      if (image) body.append("image", image);
      return upload.send<SubmitAnswer>(options.path, body, Boolean(image));
    },
    (result, form) => {
      const post = result.data.response;
      const { message = "", review_message: review } = result.data;
      form.show(
        {
          text: review ? `${message} ${review}` : message,
          tone: "success",
          link: post ? { url: post.url, label: "View your post." } : undefined,
        },
        { keep: true },
      );
      scrollToTop();
      form.later(() => {
        form.clearMessage();
        form.reset();
        setImage(null);
      }, DELAYS_MS.submitReset);
    },
    {
      initial: options.initial,
      posted,
      idPrefix: options.formId,
      invalidMessage: () => CORRECT_THE_FIELDS,
      failureMessage: ({ status, data }) => {
        if (status === 401) {
          navigate("/login");
          return null;
        }
        if (status === 409 && data.duplicate) {
          scrollToTop();
          const { url, title } = data.duplicate;
          return {
            text: data.message ?? "",
            tone: "danger",
            link: { url, label: `See “${title}”.` },
          };
        }
        if (status === 422 && data.errors) return CORRECT_THE_FIELDS;
        return data.message || "Sorry, your post could not be submitted. Please try again.";
      },
    },
  );

  /** The ImageInput's file and its own check of it. */
  function chooseImage(file: File | null, error: string) {
    setImage(file);
    form.setError("image", error);
  }

  return { form, image, chooseImage, progress: upload.progress, postedText };
}
