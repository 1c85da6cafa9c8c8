import { useId } from "react";
import type { z } from "zod";
import { apiCall, type ApiPathFor } from "../../lib/api.ts";
import { useApiForm, type ApiAnswer } from "../../lib/api-form.ts";
import { usePostedConsoleForm } from "../../lib/console-form.ts";
import { Field, FormAlert, SubmitButton, type FieldProps } from "../Form.tsx";
import { ConsoleKitForm } from "./ConsoleKitForm.tsx";

/** One field of a console form, as Field draws it. */
export interface RecordField {
  name: string;
  label: string;
  required?: boolean;
  control?: FieldProps["control"];
  options?: FieldProps["options"];
  placeholder?: string;
  type?: FieldProps["type"];
  inputMode?: FieldProps["inputMode"];
  maxLength?: number;
  rows?: number;
  hint?: string;
}

export interface ConsoleRecordFormProps {
  heading: string;
  /** The admin call, e.g. "/admin/wishlist/create". */
  call: ApiPathFor<"POST">;
  /** The form's name to the page's action (app/lib/console-form.server.ts), e.g. "create". */
  intent: string;
  /** The shared zod schema the server parses the fields with. */
  schema: z.ZodType;
  fields: RecordField[];
  initial: Record<string, string>;
  /** Sent with the fields, e.g. { id: 3 } for an edit (hidden fields of the posted form). */
  extra?: Record<string, string | number>;
  submitLabel: string;
  onSaved: (message: string) => void;
  onCancel: () => void;
}

/**
 * A console form of plain fields on the site's form kit: checked in the browser with the server's
 * schema, sent as JSON, the server's field messages beside their fields, "Loading…" while it runs.
 * Before hydration or without JavaScript it posts to the page, whose action runs the same call.
 */
export function ConsoleRecordForm(props: ConsoleRecordFormProps) {
  const { heading, call, schema, fields, initial, extra = {}, submitLabel } = props;
  const headingId = useId();
  const idPrefix = useId().replace(/:/g, "");
  const posted = usePostedConsoleForm(props.intent);
  const form = useApiForm<Record<string, string>, ApiAnswer>(
    schema,
    (values) => apiCall<ApiAnswer>(call, { ...values, ...extra }),
    (result) =>
      props.onSaved(typeof result.data.message === "string" ? result.data.message : "Saved."),
    {
      initial,
      posted,
      idPrefix,
      messageMs: 8000,
      invalidMessage: () => "Please correct the fields marked below.",
    },
  );
  return (
    <section className="console-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      <ConsoleKitForm
        form={form}
        intent={props.intent}
        hidden={extra}
        posted={posted}
        className="console-form"
      >
        <FormAlert message={form.message} />
        {fields.map((field) => (
          <Field
            key={field.name}
            {...form.bind(field.name)}
            label={field.label}
            required={field.required}
            mark={field.required ? "star" : "optional"}
            control={field.control}
            options={field.options}
            placeholder={field.placeholder}
            type={field.type}
            inputMode={field.inputMode}
            maxLength={field.maxLength}
            rows={field.rows}
            hint={field.hint}
          />
        ))}
        <div className="console-form-actions">
          <SubmitButton busy={form.busy}>{submitLabel}</SubmitButton>
          <button type="button" className="btn btn-outline" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </ConsoleKitForm>
    </section>
  );
}
