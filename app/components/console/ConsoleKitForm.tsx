import type { ReactNode } from "react";
import { useRouteLoaderData } from "react-router";
import type { ApiForm, FormOutcome } from "../../lib/api-form.ts";
import { CONSOLE_INTENT_FIELD } from "../../lib/console-form.ts";
import type { loader as consoleLayoutLoader } from "../../routes/admin/layout.tsx";
import { KitForm } from "../Form.tsx";

/**
 * A console kit form (docs/decisions/0079): posts to its page with the XSRF token the console's
 * layout gives, the hidden `intent` that names it to the page's action
 * (app/lib/console-form.server.ts) and the `hidden` values its JSON call sends besides the fields
 * (the id of the record edited).
 */
export function ConsoleKitForm({
  form,
  intent,
  hidden = {},
  posted,
  encType,
  className,
  children,
  ...labels
}: {
  form: Pick<ApiForm<Record<string, string>>, "ref" | "submit">;
  intent: string;
  hidden?: Record<string, string | number>;
  /** The action's answer to this form: a success with `next` goes there after the delay. */
  posted?: FormOutcome;
  encType?: "multipart/form-data";
  className?: string;
  children: ReactNode;
  "aria-label"?: string;
  "aria-labelledby"?: string;
  "aria-describedby"?: string;
}) {
  const csrfToken =
    useRouteLoaderData<typeof consoleLayoutLoader>("routes/admin/layout")?.csrfToken;
  return (
    <KitForm
      form={form}
      csrfToken={csrfToken}
      posted={posted}
      encType={encType}
      className={className}
      {...labels}
    >
      <input type="hidden" name={CONSOLE_INTENT_FIELD} value={intent} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </KitForm>
  );
}
