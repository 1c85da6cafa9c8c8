import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type RefObject,
} from "react";
import type { z } from "zod";
import { DELAYS_MS } from "../../core/constants.ts";
import { fieldErrors } from "../../core/field-errors.ts";
import type { ApiResult } from "./api.ts";
import { chunkFailureMessage } from "./chunks.tsx";

/**
 * The form kit's hook (docs/decisions/0022-form-kit-and-one-core.md): every form of the site keeps
 * its values, field messages, running call and feedback message here. The values are checked with
 * the same zod schema from core/ that the server runs, then sent by `call` (the JSON API);
 * `onSuccess` says what a success does (a message, a redirect after the spec's 3 s, a reset).
 */

export type FieldErrors = Record<string, string>;

export interface FormMessage {
  text: string;
  tone: "success" | "danger";
  /** A link after the text (the new post, or the live deal a duplicate points to). */
  link?: { url: string; label: string };
}

/**
 * A route action's answer to a kit form posted to its page before hydration or without JavaScript
 * (app/lib/form-action.server.ts): the same field messages and message as the JSON call's.
 */
export interface FormOutcome {
  ok: boolean;
  /** What was posted, to fill the form again (never a password). */
  values: Record<string, string>;
  errors: FieldErrors;
  message: string | null;
  /** Where a success goes after the redirect delay. */
  next?: string;
  /** A link after the message (the new post, or the live deal a duplicate points to). */
  link?: { url: string; label: string };
}

/**
 * The route action's answer when it answers this form: a page with several forms (the post
 * pages' comment boxes and report dialogs, Submit Deals' tabs) echoes which one was posted in
 * `values` (app/lib/form-action.server.ts, `form`), and only that one shows it.
 */
export function postedFor(
  posted: FormOutcome | undefined,
  form: Record<string, string>,
): FormOutcome | undefined {
  return posted && Object.keys(form).every((name) => posted.values[name] === form[name])
    ? posted
    : undefined;
}

/** What any of the site's JSON answers may carry for a form. */
export interface ApiAnswer {
  status?: unknown;
  message?: unknown;
  errors?: unknown;
}

export interface ApiFormOptions<V extends Record<string, string>, T> {
  /** The fields and their first values. */
  initial: V;
  /** Field messages and a message to show at once: the server's answer to a form posted without JavaScript. */
  initialErrors?: FieldErrors;
  initialMessage?: FormMessage | null;
  /** The route action's answer to this form posted to the page (`useActionData`). */
  posted?: FormOutcome;
  /** "deal" gives the field `title` the id `deal-title`; by default a field's id is its name. */
  idPrefix?: string;
  /** How long a message shows before it hides itself: the spec's 3 s unless given. */
  messageMs?: number;
  /** The message shown beside the browser's own field messages (none unless given). */
  invalidMessage?: (errors: FieldErrors, values: V) => string;
  /** The message of a failed call (null: none); by default the server's. */
  failureMessage?: (result: ApiResult<T>) => string | FormMessage | null;
}

export interface ApiForm<V extends Record<string, string>> {
  values: V;
  errors: FieldErrors;
  /** A call is running. */
  busy: boolean;
  /** The last call succeeded; stays until `reset`. */
  done: boolean;
  message: FormMessage | null;
  /** Changes on every `reset`, so widgets with state of their own (editor, file input) clear too. */
  resetKey: number;
  /** The form element, for moving focus to the first field in error. */
  ref: RefObject<HTMLFormElement | null>;
  /** Everything a Field needs for one value: id, name, value, error and change handler. */
  bind(field: keyof V & string): {
    id: string;
    name: string;
    value: string;
    error: string | undefined;
    onChange: (value: string) => void;
  };
  set(field: keyof V & string, value: string): void;
  /** A message for a field the schema does not see (a chosen file); "" clears it. */
  setError(field: string, message: string): void;
  /** Shows field messages and moves focus to the first field in error. */
  showErrors(errors: FieldErrors): void;
  show(message: FormMessage, options?: { keep?: boolean }): void;
  clearMessage(): void;
  /** Validates, sends and answers; the form's onSubmit (an event is optional, e.g. a dialog's Yes). */
  submit(event?: FormEvent): Promise<void>;
  reset(values?: V): void;
  /** Runs `work` after `ms` unless the page was left meanwhile. */
  later(work: () => void, ms: number): void;
}

/** The message of an API answer: a string, or the first of the field messages (sign-up's shape). */
export function messageOf(
  body: ApiAnswer,
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

/** Field messages of an API answer: `errors`, or the sign-up's `message.<field>`. */
function serverFieldErrors(body: ApiAnswer): FieldErrors {
  const source =
    body.errors && typeof body.errors === "object"
      ? body.errors
      : body.message && typeof body.message === "object"
        ? body.message
        : {};
  return Object.fromEntries(
    Object.entries(source).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

/**
 * The browser's check of a form: the schema's message per field, plus the messages of fields the
 * schema does not see (a chosen file), which belong to their widget and stay until it clears them.
 */
function check(schema: z.ZodType | null, values: Record<string, string>, shown: FieldErrors) {
  const kept = Object.entries(shown).filter(([field]) => !(field in values));
  const found = schema ? fieldErrors(schema, values) : null;
  return { ...found, ...Object.fromEntries(kept) } as FieldErrors;
}

/** A form's schema: given, made, or loaded on use (app/lib/lazy-schemas.ts). */
export type FormSchema = z.ZodType | (() => z.ZodType | Promise<z.ZodType>);

/**
 * A schema loaded on use. One that cannot arrive (ChunkLoadError) is reported in the console and
 * gives null: the form is sent unchecked, and the server, which runs the same schema, answers the
 * field messages.
 */
async function loaded(schema: Promise<z.ZodType>): Promise<z.ZodType | null> {
  try {
    return await schema;
  } catch (error) {
    console.error(chunkFailureMessage(error) ?? error);
    return null;
  }
}

/** Timers that die with the component. */
function useLater() {
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const active = timers.current;
    return () => {
      for (const timer of active) clearTimeout(timer);
      active.clear();
    };
  }, []);
  return useCallback((work: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      work();
    }, ms);
    timers.current.add(timer);
  }, []);
}

/**
 * What was typed or chosen in a server-rendered form before React hydrated it: React keeps what the
 * page shows but not in the form's state, so the form would send its first values. A control
 * differs from what the server wrote when its value is not its default (the `value` attribute), or
 * an option's selection is not its default.
 */
function typedBeforeHydration(
  form: HTMLFormElement,
  fields: readonly string[],
): Record<string, string> {
  const typed: Record<string, string> = {};
  for (const field of fields) {
    const control = form.elements.namedItem(field);
    if (control instanceof HTMLTextAreaElement) {
      if (control.value !== control.defaultValue) typed[field] = control.value;
    } else if (control instanceof HTMLInputElement) {
      const own = !["checkbox", "radio", "file", "hidden"].includes(control.type);
      if (own && control.value !== control.defaultValue) typed[field] = control.value;
    } else if (control instanceof HTMLSelectElement) {
      if ([...control.options].some((option) => option.selected !== option.defaultSelected)) {
        typed[field] = control.value;
      }
    }
  }
  return typed;
}

/**
 * On mount, before the first paint, hands `takeUp` what was typed in `form` before hydration (the
 * named `fields`), if anything.
 * Later changes reach the state through the fields' handlers.
 */
export function useTypedBeforeHydration(
  form: RefObject<HTMLFormElement | null>,
  fields: readonly string[],
  takeUp: (typed: Record<string, string>) => void,
) {
  useLayoutEffect(() => {
    if (!form.current) return;
    const typed = typedBeforeHydration(form.current, fields);
    if (Object.keys(typed).length) takeUp(typed);
    // Once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/** A feedback message that hides itself after `ms` unless kept. */
function useTimedMessage(ms: number, initial: FormMessage | null) {
  const [message, setMessage] = useState<FormMessage | null>(initial);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(
    (next: FormMessage, options: { keep?: boolean } = {}) => {
      clearTimeout(timer.current);
      setMessage(next);
      if (!options.keep) timer.current = setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setMessage(null);
  }, []);
  return { message, show, clear };
}

export function useApiForm<V extends Record<string, string>, T = ApiAnswer>(
  schema: FormSchema,
  call: (values: V) => Promise<ApiResult<T>>,
  onSuccess: (result: ApiResult<T>, form: ApiForm<V>) => void | Promise<void>,
  options: ApiFormOptions<V, T>,
): ApiForm<V> {
  const { idPrefix, messageMs = DELAYS_MS.feedback, posted } = options;
  const initial = options.initial;
  const [values, setValues] = useState<V>(() => {
    if (!posted || posted.ok) return initial;
    const kept = Object.keys(initial).filter((field) => field in posted.values);
    return {
      ...initial,
      ...Object.fromEntries(kept.map((field) => [field, posted.values[field]])),
    };
  });
  const [errors, setErrors] = useState<FieldErrors>(posted?.errors ?? options.initialErrors ?? {});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  const [focusRequest, setFocusRequest] = useState(0);
  const ref = useRef<HTMLFormElement>(null);
  const feedback = useTimedMessage(
    messageMs,
    posted?.message
      ? { text: posted.message, tone: posted.ok ? "success" : "danger", link: posted.link }
      : (options.initialMessage ?? null),
  );
  const later = useLater();

  useTypedBeforeHydration(ref, Object.keys(initial), (typed) =>
    setValues((current) => ({ ...current, ...typed })),
  );

  useEffect(() => {
    if (focusRequest) ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const setError = useCallback((field: string, message: string) => {
    setErrors(({ [field]: _cleared, ...rest }) => (message ? { ...rest, [field]: message } : rest));
  }, []);

  const set = useCallback(
    (field: keyof V & string, value: string) => {
      setValues((current) => ({ ...current, [field]: value }));
      setError(field, "");
    },
    [setError],
  );

  const showErrors = useCallback((found: FieldErrors) => {
    setErrors(found);
    setFocusRequest((n) => n + 1);
  }, []);

  const reset = useCallback(
    (next?: V) => {
      setValues(next ?? initial);
      setErrors({});
      setDone(false);
      setResetKey((key) => key + 1);
    },
    [initial],
  );

  const form: ApiForm<V> = {
    values,
    errors,
    busy,
    done,
    message: feedback.message,
    resetKey,
    ref,
    bind: (field) => ({
      id: idPrefix ? `${idPrefix}-${field}` : field,
      name: field,
      value: values[field] ?? "",
      error: errors[field],
      onChange: (value: string) => set(field, value),
    }),
    set,
    setError,
    showErrors,
    show: feedback.show,
    clearMessage: feedback.clear,
    reset,
    later,
    async submit(event) {
      event?.preventDefault();
      feedback.clear();
      const made = typeof schema === "function" ? schema() : schema;
      // Checks that load on use (the first send of such a form): busy while they arrive.
      if (made instanceof Promise) setBusy(true);
      const found = check(made instanceof Promise ? await loaded(made) : made, values, errors);
      if (Object.keys(found).length) {
        setBusy(false);
        showErrors(found);
        const text = options.invalidMessage?.(found, values);
        if (text) feedback.show({ text, tone: "danger" });
        return;
      }
      setBusy(true);
      const result = await call(values);
      if (result.ok) {
        setErrors({});
        setDone(true);
        // Still busy while the success runs (a comment waits for the page's data to reload).
        await onSuccess(result, form);
        setBusy(false);
        return;
      }
      setBusy(false);
      const answer = result.data as ApiAnswer;
      const serverErrors = serverFieldErrors(answer);
      if (Object.keys(serverErrors).length) showErrors(serverErrors);
      const failure = options.failureMessage ? options.failureMessage(result) : messageOf(answer);
      if (failure) {
        feedback.show(typeof failure === "string" ? { text: failure, tone: "danger" } : failure);
      }
    },
  };
  return form;
}
