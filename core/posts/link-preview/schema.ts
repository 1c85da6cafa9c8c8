import { z } from "zod";
import { text } from "../../validation.ts";
import { DEAL_MESSAGES, SUBMISSION_LIMITS } from "../submissions/schema.ts";

/** `POST /api/link_preview`: the link pasted into Submit Deal's "Deal link" field. */
export const LinkPreviewBody = z.object({
  link: z.preprocess(
    (value) => (typeof value === "string" ? value.trim() : value),
    text({ error: DEAL_MESSAGES.link }).pipe(
      z
        .url({ protocol: /^https?$/, error: DEAL_MESSAGES.link })
        .max(SUBMISSION_LIMITS.link, DEAL_MESSAGES.link),
    ),
  ),
});

export type LinkPreviewInput = z.output<typeof LinkPreviewBody>;

/** Why a page could not be read, as the member is told (the link field's message). */
export const PREVIEW_MESSAGES = {
  refused: (why: string) => `This page cannot be read: ${why}.`,
  failed: (why: string) => `The page could not be read: ${why}.`,
  notHtml: (type: string) => `The link is not a web page (it answered ${type}).`,
  tooLarge: (size: string) => `The page is larger than ${size}, too large to read.`,
  timedOut: (seconds: number) => `The page did not answer within ${seconds} s.`,
} as const;
