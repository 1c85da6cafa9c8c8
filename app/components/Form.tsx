import type { InputHTMLAttributes, ReactNode, Ref } from "react";
import { Form, Link } from "react-router";
import { DELAYS_MS, XSRF_FIELD } from "../../core/constants.ts";
import type { ApiForm, FormMessage, FormOutcome } from "../lib/api-form.ts";

/** The form kit's parts (docs/decisions/0022-form-kit-and-one-core.md); the hook is app/lib/api-form.ts. */

type InputAttributes = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  | "type"
  | "inputMode"
  | "autoComplete"
  | "min"
  | "max"
  | "step"
  | "maxLength"
  | "placeholder"
  | "disabled"
  | "autoFocus"
>;

export type FieldProps = InputAttributes & {
  id: string;
  name?: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  /** Required: the control says so to assistive technology, and a star follows the label. */
  required?: boolean;
  /**
   * What follows the label: a star (the default for a required field, hidden from screen readers,
   * which hear "required"), "(optional)", or nothing (labels that carry their own mark).
   */
  mark?: "star" | "optional" | "none";
  /** A select's choices; the placeholder, when given, is a first choice with the value "". */
  control?: "input" | "select" | "textarea";
  options?: readonly { value: string; label: string }[];
  rows?: number;
  inputRef?: Ref<HTMLInputElement>;
};

function LabelMark({ mark }: { mark: FieldProps["mark"] }) {
  if (mark === "star") return <span aria-hidden="true"> *</span>;
  if (mark === "optional") return <span className="optional"> (optional)</span>;
  return null;
}

/**
 * One labelled value of a form: an input, a select or a textarea, with its hint and its error tied
 * to it for screen readers (aria-describedby, aria-invalid).
 */
export function Field(props: FieldProps) {
  const { id, name = id, label, value, onChange, error, hint, required, control = "input" } = props;
  const { mark = required ? "star" : "none", options = [], rows, inputRef, ...input } = props;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const shared = {
    id,
    name,
    value,
    required,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
  };
  return (
    <div className="form-field">
      <label htmlFor={id}>
        {label}
        <LabelMark mark={mark} />
      </label>
      {control === "select" ? (
        <select
          {...shared}
          disabled={input.disabled}
          onChange={(event) => onChange(event.target.value)}
        >
          {input.placeholder !== undefined && <option value="">{input.placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : control === "textarea" ? (
        <textarea
          {...shared}
          autoFocus={input.autoFocus}
          rows={rows}
          maxLength={input.maxLength}
          disabled={input.disabled}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          {...shared}
          ref={inputRef}
          type={input.type ?? "text"}
          inputMode={input.inputMode}
          autoComplete={input.autoComplete}
          min={input.min}
          max={input.max}
          step={input.step}
          maxLength={input.maxLength}
          placeholder={input.placeholder}
          disabled={input.disabled}
          autoFocus={input.autoFocus}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The form's message in a live region that is always in the page, so screen readers announce what
 * appears in it. `className` keeps each page's own spacing.
 */
export function FormAlert({
  message,
  className = "form-alert-region",
}: {
  message: FormMessage | null;
  className?: string;
}) {
  return (
    <div className={className} aria-live="polite" role="status">
      {message && (
        <div className={`alert alert-${message.tone}`}>
          {message.text}
          {message.link && (
            <>
              {" "}
              <Link to={message.link.url}>{message.link.label}</Link>
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** A submit button that says "Loading…" and is disabled while a call runs. */
export function SubmitButton({
  busy,
  disabled,
  children,
  className = "btn btn-primary",
}: {
  busy: boolean;
  /** Disabled without saying "Loading…" (a success waiting for its reset). */
  disabled?: boolean;
  children: ReactNode;
  className?: string;
}) {
  return (
    <button
      type="submit"
      className={className}
      disabled={busy || disabled}
      aria-busy={busy || undefined}
    >
      {busy ? "Loading…" : children}
    </button>
  );
}

/** The XSRF token of a form that posts to the server without JavaScript (the CSRF plugin reads it). */
export function CsrfField({ token }: { token: string | null | undefined }) {
  return <input type="hidden" name={XSRF_FIELD} value={token ?? ""} />;
}

/**
 * A kit form (docs/decisions/0079): a React Router `<Form>` that posts to its route's action
 * (app/lib/form-action.server.ts) with the XSRF token, so that it works before hydration and
 * without JavaScript. Once hydrated, the kit's `submit` checks and sends it by its JSON call and
 * the post does not happen (React Router skips a submit whose event was prevented).
 */
export function KitForm({
  form,
  csrfToken,
  posted,
  action,
  className = "form",
  children,
  ...attributes
}: {
  form: Pick<ApiForm<Record<string, string>>, "ref" | "submit">;
  csrfToken: string | null | undefined;
  /** The action's answer: a success with a `next` goes there after the redirect delay. */
  posted?: FormOutcome;
  /** The route to post to; by default the page's own. */
  action?: string;
  className?: string;
  children: ReactNode;
  "aria-label"?: string;
  "aria-labelledby"?: string;
  "aria-describedby"?: string;
  /** Multipart for a form with a file input, so the page's action receives the file. */
  encType?: "multipart/form-data";
}) {
  return (
    <Form
      ref={form.ref}
      method="post"
      action={action}
      className={className}
      onSubmit={form.submit}
      noValidate
      {...attributes}
    >
      {posted?.ok && posted.next && (
        <meta httpEquiv="refresh" content={`${DELAYS_MS.redirect / 1000};url=${posted.next}`} />
      )}
      <CsrfField token={csrfToken} />
      {children}
    </Form>
  );
}
