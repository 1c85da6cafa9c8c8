import { useEffect, useRef, useState, type FormEvent, type InputHTMLAttributes } from "react";
import { Link, useNavigate } from "react-router";
import type { z } from "zod";
import { DELAYS_MS } from "../../core/constants.ts";
import { fieldErrors } from "../../core/validation.ts";
import type { Choice } from "../../core/submissions/presenter.ts";
import { uploadWithProgress } from "../lib/upload.ts";

/** Pieces shared by the Submit Deals page's deal form and discussion form. */

export type FieldErrors = Record<string, string>;

interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  required?: boolean;
  hint?: string;
}

function describedBy(id: string, hint?: string) {
  return hint ? `${id}-hint ${id}-error` : `${id}-error`;
}

function FieldLabel({ id, label, required }: { id: string; label: string; required?: boolean }) {
  return (
    <label htmlFor={id}>
      {label}
      {required && <span aria-hidden="true"> *</span>}
    </label>
  );
}

function FieldMessages({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      <p id={`${id}-error`} className="field-error" aria-live="polite">
        {error}
      </p>
    </>
  );
}

export function TextField(
  props: FieldProps &
    Pick<
      InputHTMLAttributes<HTMLInputElement>,
      "type" | "inputMode" | "min" | "max" | "step" | "maxLength" | "placeholder"
    >,
) {
  const { id, label, value, onChange, error, required, hint, ...input } = props;
  return (
    <div className="form-field">
      <FieldLabel id={id} label={label} required={required} />
      <input
        {...input}
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(id, hint)}
      />
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}

export function SelectField(props: FieldProps & { choices: Choice[]; placeholder: string }) {
  const { id, label, value, onChange, error, required, hint, choices, placeholder } = props;
  return (
    <div className="form-field">
      <FieldLabel id={id} label={label} required={required} />
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(id, hint)}
      >
        <option value="">{placeholder}</option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.title}
          </option>
        ))}
      </select>
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}

export interface Notice {
  kind: "success" | "danger";
  text: string;
  /** Where the new post, or the existing deal a duplicate points to, can be seen. */
  link?: { url: string; label: string };
}

/** The form's message, in a live region so screen readers hear it. */
export function FormNotice({ notice }: { notice: Notice | null }) {
  return (
    <div aria-live="polite" role="status" className="submit-notice">
      {notice && (
        <div className={`alert alert-${notice.kind}`}>
          {notice.text}
          {notice.link && (
            <>
              {" "}
              <Link to={notice.link.url}>{notice.link.label}</Link>
            </>
          )}
        </div>
      )}
    </div>
  );
}

interface SubmitAnswer {
  status?: string | boolean;
  message?: string;
  errors?: FieldErrors;
  response?: { url: string; title: string };
  duplicate?: { url: string; title: string };
}

/** Moves focus to the first field with a message so keyboard and screen-reader users land on it. */
export function focusFirstError(formId: string, errors: FieldErrors, order: readonly string[]) {
  const first = order.find((name) => errors[name]);
  if (first) document.getElementById(`${formId}-${first}`)?.focus();
}

/**
 * Sends a submission form with upload progress and turns the answer into the page's states: on
 * success the message shows, the page scrolls to the top and after 3 s the message clears and the
 * form resets; a duplicate deal links to the live one; field messages come back for the form; a
 * lost session goes to /login.
 */
export function useSubmission(path: string, onReset: () => void) {
  const navigate = useNavigate();
  const [sending, setSending] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(resetTimer.current), []);

  async function send(form: FormData, withFile: boolean): Promise<FieldErrors | null> {
    setSending(true);
    setNotice(null);
    setProgress(withFile ? 0 : null);
    const result = await uploadWithProgress<SubmitAnswer>(
      path,
      form,
      withFile ? setProgress : () => {},
    );
    setSending(false);
    setProgress(null);
    const answer = result.data;
    if (result.ok) {
      setSubmitted(true);
      setNotice({
        kind: "success",
        text: answer.message ?? "",
        link: answer.response ? { url: answer.response.url, label: "View your post." } : undefined,
      });
      window.scrollTo({ top: 0, behavior: "smooth" });
      resetTimer.current = setTimeout(() => {
        setNotice(null);
        setSubmitted(false);
        onReset();
      }, DELAYS_MS.submitReset);
      return null;
    }
    if (result.status === 401) {
      navigate("/login");
      return null;
    }
    if (result.status === 409 && answer.duplicate) {
      setNotice({
        kind: "danger",
        text: answer.message ?? "",
        link: { url: answer.duplicate.url, label: `See “${answer.duplicate.title}”.` },
      });
      window.scrollTo({ top: 0, behavior: "smooth" });
      return null;
    }
    if (result.status === 422 && answer.errors) {
      setNotice({ kind: "danger", text: "Please correct the fields marked below." });
      return answer.errors;
    }
    setNotice({
      kind: "danger",
      text: answer.message || "Sorry, your post could not be submitted. Please try again.",
    });
    return null;
  }

  return { send, sending, submitted, progress, notice, setNotice };
}

/**
 * The state both Submit Deals forms keep: field values, the chosen image, field errors, and the
 * submission (which resets all of them a moment after a success). `field(name)` gives an input
 * its id, value, error and change handler.
 */
export function useSubmitForm<V extends Record<string, string>>(
  formId: string,
  empty: V,
  path: string,
  fieldOrder: readonly string[],
) {
  const [values, setValues] = useState<V>(empty);
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [resetKey, setResetKey] = useState(0);
  const submission = useSubmission(path, () => {
    setValues(empty);
    setImage(null);
    setErrors({});
    setResetKey((key) => key + 1);
  });

  const field = (name: keyof V & string) => ({
    id: `${formId}-${name}`,
    value: values[name],
    error: errors[name],
    onChange: (value: string) => {
      setValues((current) => ({ ...current, [name]: value }));
      if (errors[name]) setErrors(({ [name]: _cleared, ...rest }) => rest);
    },
  });

  /**
   * Checks the values with the form's schema (plus any file error), then sends them with the
   * image and `extra` fields; field messages from either side focus the first field in error.
   */
  async function submit(
    event: FormEvent<HTMLFormElement>,
    schema: z.ZodType,
    extra: Record<string, string>,
  ) {
    event.preventDefault();
    const found: FieldErrors = {
      ...fieldErrors(schema, values),
      ...(errors.image ? { image: errors.image } : {}),
    };
    if (Object.keys(found).length) {
      setErrors(found);
      submission.setNotice({ kind: "danger", text: "Please correct the fields marked below." });
      focusFirstError(formId, found, fieldOrder);
      return;
    }
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...extra, ...values })) form.append(name, value);
    if (image) form.append("image", image);
    const serverErrors = await submission.send(form, Boolean(image));
    if (serverErrors) {
      setErrors(serverErrors);
      focusFirstError(formId, serverErrors, fieldOrder);
    }
  }

  return { values, image, setImage, errors, setErrors, resetKey, submission, field, submit };
}
