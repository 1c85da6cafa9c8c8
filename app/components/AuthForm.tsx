import { useCallback, useEffect, useRef, useState, type ReactNode, type Ref } from "react";
import type { z } from "zod";
import { fieldErrors } from "../../core/validation.ts";
import "../styles/auth.css";

/** The card every account screen sits in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="container auth-page">
      <div className="card auth-card">
        <h1 className="page-title">{title}</h1>
        {children}
      </div>
    </div>
  );
}

export interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  type?: "text" | "email" | "password";
  autoComplete?: string;
  hint?: string;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input with its hint and error tied to it for screen readers. */
export function Field({
  id,
  label,
  value,
  onChange,
  error,
  type = "text",
  autoComplete,
  hint,
  disabled,
  inputRef,
}: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={id}
        ref={inputRef}
        type={type}
        value={value}
        autoComplete={autoComplete}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
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

export type Tone = "success" | "danger";

/** A live region that is always in the page, so screen readers announce what appears in it. */
export function FormAlert({ message }: { message: { text: string; tone: Tone } | null }) {
  return (
    <div className="form-alert-region" aria-live="polite" role="status">
      {message && <p className={`alert alert-${message.tone}`}>{message.text}</p>}
    </div>
  );
}

/** A submit button that says "Loading…" and is disabled while a call runs. */
export function SubmitButton({
  busy,
  children,
  className = "btn btn-primary",
}: {
  busy: boolean;
  children: ReactNode;
  className?: string;
}) {
  return (
    <button type="submit" className={className} disabled={busy} aria-busy={busy || undefined}>
      {busy ? "Loading…" : children}
    </button>
  );
}

/**
 * Timers that die with the component: `later(fn, ms)` runs fn after ms unless the page was left.
 */
export function useTimers() {
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const active = timers.current;
    return () => {
      for (const timer of active) clearTimeout(timer);
      active.clear();
    };
  }, []);
  return useCallback((run: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      run();
    }, ms);
    timers.current.add(timer);
  }, []);
}

/** A feedback message that hides itself after `ms` (the spec's 3 s, 5 s for password changes). */
export function useTimedMessage(ms: number) {
  const [message, setMessage] = useState<{ text: string; tone: Tone } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(
    (text: string, tone: Tone, options: { keep?: boolean } = {}) => {
      clearTimeout(timer.current);
      setMessage({ text, tone });
      if (!options.keep) timer.current = setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );
  return { message, show, clear: useCallback(() => setMessage(null), []) };
}

/**
 * Controlled form values checked with a shared zod schema: `validate()` sets one message per field
 * and focuses the first field in error.
 */
export function useSchemaForm<Values extends Record<string, string>>(
  schema: z.ZodType,
  initial: Values,
) {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = useCallback(
    (field: keyof Values & string) => (value: string) => {
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => {
        if (!current[field]) return current;
        const { [field]: _removed, ...rest } = current;
        return rest;
      });
    },
    [],
  );
  const showErrors = useCallback((found: Record<string, string>) => {
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) document.getElementById(first)?.focus();
  }, []);
  const validate = useCallback(() => {
    const found = fieldErrors(schema, values);
    if (found) {
      showErrors(found);
      return false;
    }
    setErrors({});
    return true;
  }, [schema, values, showErrors]);
  const reset = useCallback(() => {
    setValues(initial);
    setErrors({});
  }, [initial]);
  /** What a Field needs for one value: its id (the field's name), value, error and change handler. */
  const bind = (field: keyof Values & string) => ({
    id: field,
    value: values[field],
    onChange: set(field),
    error: errors[field],
  });
  return { values, errors, set, bind, validate, showErrors, reset };
}

/** The message of an API answer: a string, or the first of the field messages (sign-up's shape). */
export function messageOf(
  body: { message?: unknown },
  fallback = "Something went wrong. Please try again.",
): string {
  if (typeof body.message === "string" && body.message) return body.message;
  if (body.message && typeof body.message === "object") {
    const first = Object.values(body.message as Record<string, unknown>).find(
      (v) => typeof v === "string",
    );
    if (typeof first === "string") return first;
  }
  return fallback;
}

/** Field messages from an API answer's `errors`, for the fields this form has. */
export function serverFieldErrors(
  body: { errors?: unknown },
  fields: readonly string[],
): Record<string, string> {
  const errors =
    body.errors && typeof body.errors === "object" ? (body.errors as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.entries(errors).filter(
      (entry): entry is [string, string] =>
        fields.includes(entry[0]) && typeof entry[1] === "string",
    ),
  );
}

export const PASSWORD_HINT =
  "4-32 characters, with at least one digit, one uppercase letter, one lowercase letter and one special character.";
