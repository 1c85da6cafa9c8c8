import { useActionData } from "react-router";
import type { FormOutcome } from "./api-form.ts";

/** The hidden field that names which of a console page's forms was posted (its `intent`). */
export const CONSOLE_INTENT_FIELD = "intent";

/**
 * The page action's answer to this form (app/lib/console-form.server.ts), when the page was
 * posted by it: a console page has several forms, and each shows only its own answer.
 */
export function usePostedConsoleForm(intent: string): FormOutcome | undefined {
  const posted = useActionData() as (FormOutcome & { intent?: string }) | undefined;
  return posted && posted.intent === intent ? posted : undefined;
}
