import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { requestContext, type RequestContext } from "#app-context";
import type { StaffRole } from "../../core/auth/policy.ts";
import type { CurrentUser } from "../../core/auth/sessions.ts";
import { MAX_UPLOAD_BYTES, XSRF_FIELD } from "../../core/constants.ts";
import type { FormOutcome } from "./api-form.ts";
import { CONSOLE_INTENT_FIELD } from "./console-form.ts";
import { requireConsoleUser } from "./console.server.ts";
import { formAction, type FormActionOptions } from "./form-action.server.ts";

/**
 * The page door of the console's kit forms (docs/decisions/0079): a console page's forms post to
 * the page, and its one action runs the form named by the hidden `intent` field with the same
 * schema, role and service as that form's JSON call (`server/api/admin-*.ts`).
 */

/** What the form's service is given besides its input. */
export interface ConsoleFormDoor {
  services: RequestContext["services"];
  user: CurrentUser;
  /** The posted image's bytes (a form with `file`), when one was chosen. */
  file?: Buffer;
  /** The page's own address, for a success that goes back to the list. */
  url: URL;
}

/** One form of a console page. */
export interface ConsoleForm<S extends z.ZodType = z.ZodType> {
  /** The zod schema of the form's JSON call. */
  schema: S;
  /**
   * The schema as this post reads it, when that depends on stored data (an edit that sends only
   * what changed); `schema` otherwise.
   */
  schemaFor?: (posted: FormData, door: ConsoleFormDoor) => Promise<z.ZodType>;
  /** The role of the form's JSON call (`auth` of its `apiRoute`); moderator unless given. */
  role?: StaffRole;
  /**
   * The multipart file field, read and capped like the JSON call's (`multipart` of its
   * `apiRoute`); the service checks the bytes themselves, as it does for the call.
   */
  file?: { field: string; tooLargeMessage: string };
  /** Runs the JSON call's service; gives the success message. */
  run: (input: z.output<S>, door: ConsoleFormDoor) => Promise<{ message: string }>;
  validationMessage?: FormActionOptions["validationMessage"];
  /** Where a success refreshes to after the redirect delay (a form that closes on success). */
  next?: (url: URL) => string;
}

/** The form's answer, named by the form it answers (a console page has several). */
export type ConsoleFormOutcome = FormOutcome & { intent: string };

/** Keeps each form's input type while a page lists its forms. */
export function consoleForm<S extends z.ZodType>(form: ConsoleForm<S>): ConsoleForm {
  return form as unknown as ConsoleForm;
}

/** The list's address, without the open form (`?new=…`, `?edit=…`, `?view=…`). */
export function listAddress(url: URL): string {
  const params = new URLSearchParams(url.searchParams);
  for (const key of ["new", "edit", "view"]) params.delete(key);
  const query = params.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

/** The "please correct" headline the console's record forms show for a failed check. */
export const correctTheFields = () => "Please correct the fields marked below.";

/**
 * A console page's action: the staff member (the same role as the form's JSON call, as the
 * action does not run the page's loader), the form named by `intent`, then `formAction` with its
 * schema and service.
 */
export async function consoleFormAction(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  forms: Record<string, ConsoleForm>,
) {
  const ctx = context.get(requestContext);
  // Read from a copy: formAction reads the form itself.
  const posted = await request.clone().formData();
  const intent = String(posted.get(CONSOLE_INTENT_FIELD) ?? "");
  // "category-create:3": the part after the colon tells apart forms of one kind on a page (each
  // forum's "add a category"), so that only the form posted shows the answer.
  const [kind = ""] = intent.split(":");
  const form = Object.hasOwn(forms, kind) ? forms[kind] : undefined;
  // The staff check comes first, so that a member learns nothing of the forms.
  const user = requireConsoleUser(ctx, form?.role ?? "moderator");
  if (!form) {
    return data(
      {
        ok: false,
        values: {},
        errors: {},
        message: "This form is not known. Reload the page and try again.",
        intent,
      } satisfies ConsoleFormOutcome,
      400,
    );
  }
  const url = new URL(request.url);
  let file: Buffer | undefined;
  const chosen = form.file ? posted.get(form.file.field) : null;
  // An empty file input still posts a part with no name and no bytes.
  if (form.file && chosen instanceof Blob && chosen.size > MAX_UPLOAD_BYTES) {
    const message = form.file.tooLargeMessage;
    const values = Object.fromEntries(
      [...posted].filter(
        (entry): entry is [string, string] =>
          entry[0] !== XSRF_FIELD && typeof entry[1] === "string",
      ),
    );
    return data(
      {
        ok: false,
        values,
        errors: { [form.file.field]: message },
        message,
        intent,
      } satisfies ConsoleFormOutcome,
      422,
    );
  }
  if (chosen instanceof Blob && chosen.size > 0) file = Buffer.from(await chosen.arrayBuffer());
  const door: ConsoleFormDoor = { services: ctx.services, user, file, url };
  const answer = await formAction(
    request,
    form.schemaFor ? await form.schemaFor(posted, door) : form.schema,
    async (input) => (await form.run(input, door)).message,
    {
      validationMessage: form.validationMessage,
      ...(form.next ? { next: form.next(url) } : {}),
    },
  );
  return data({ ...answer.data, intent } satisfies ConsoleFormOutcome, answer.init ?? undefined);
}
