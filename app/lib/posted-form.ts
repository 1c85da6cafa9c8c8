import type { FormOutcome } from "./api-form.ts";

/**
 * The route action's answer when it answers this form: a page with several forms (the post
 * pages' comment boxes and report dialogs) echoes which one was posted in `values`
 * (app/lib/post-forms.server.ts), and only that one shows it.
 */
export function postedFor(
  posted: FormOutcome | undefined,
  form: Record<string, string>,
): FormOutcome | undefined {
  if (!posted) return undefined;
  const matches = Object.entries(form).every(([name, value]) => posted.values[name] === value);
  return matches ? posted : undefined;
}
