import { data } from "react-router";
import type { z } from "zod";
import { XSRF_FIELD } from "../../core/constants.ts";
import {
  DomainError,
  TooManyAttemptsError,
  ValidationError,
  HTTP_STATUS_OF,
} from "../../core/errors.ts";
import { issuesToFieldErrors } from "../../core/validation.ts";
import type { FormOutcome } from "./api-form.ts";

/**
 * The page door of a kit form (docs/decisions/0079): the form posted to its route, before
 * hydration or without JavaScript, checked with the same zod schema and run by the same service
 * as its JSON call, answered with the `{ errors, message }` the kit shows.
 */

/** Fields never written back into the page (a password stays with the visitor who typed it). */
const SECRET_FIELD = /password/i;

export interface FormActionOptions {
  /** The headline of a failed check, as the JSON call's `failure.validationMessage` words it. */
  validationMessage?: (errors: Record<string, string>) => string;
  /** The message of a domain error, where the page words it differently from the service. */
  failureMessage?: (error: DomainError) => string;
  /** Where a success sends the visitor, after the kit's redirect delay. */
  next?: string;
  /** A link after a domain error's message (the live deal a duplicate points to). */
  failureLink?: (error: DomainError) => FormOutcome["link"];
  /**
   * Which of the page's forms was posted (its `intent` and what it acts on), echoed in `values`
   * of every answer, so that only that form shows it.
   */
  form?: Record<string, string>;
  /**
   * The schema's input read from the posted form, where a field posts several values (a
   * multiple select, read with `getAll`); the posted text fields as they are otherwise.
   */
  fields?: (posted: FormData) => Record<string, unknown>;
}

/** What a form's service gives: the success message, and a link after it (the new post). */
export type FormSuccess = string | { message: string; link?: FormOutcome["link"] };

/** The posted text fields, without the XSRF token the CSRF plugin has already checked. */
export async function postedValues(request: Request): Promise<Record<string, string>> {
  return (await postedForm(request)).values;
}

/** The posted form: its text fields (without the XSRF token) and its chosen files. */
export async function postedForm(request: Request) {
  return formParts(await request.formData());
}

function formParts(posted: FormData) {
  const values: Record<string, string> = {};
  const files: Record<string, File> = {};
  for (const [name, value] of posted) {
    if (typeof value !== "string") files[name] = value;
    else if (name !== XSRF_FIELD) values[name] = value;
  }
  return { values, files };
}

/**
 * The bytes of the file chosen in a multipart form's `field`, or null when none was (an empty
 * file input still sends a part with no name and no bytes, as server/api/multipart-form.ts reads
 * it). Call it before `formAction`, which reads the body. Whether the bytes are an image of the
 * allowed size is the service's check, as for the JSON call.
 */
export async function postedFile(request: Request, field: string): Promise<Buffer | null> {
  const file = (await request.clone().formData()).get(field);
  if (!(file instanceof Blob) || file.size === 0) return null;
  return Buffer.from(await file.arrayBuffer());
}

function shown(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !SECRET_FIELD.test(name)));
}

/**
 * Parses the posted form with `schema` and runs `act` with the parsed input; `act` gives the
 * success message. A failed check or a domain error answers the form with its field messages and
 * message, and a 4xx status; anything else is a fault of the server and is thrown.
 */
export async function formAction<S extends z.ZodType>(
  request: Request,
  schema: S,
  act: (input: z.output<S>) => Promise<FormSuccess>,
  options: FormActionOptions & {
    /** Values the page adds to the posted ones (a token from the address). */
    also?: Record<string, string>;
  } = {},
) {
  const posted = await request.formData();
  const values = { ...formParts(posted).values, ...options.also };
  const input = options.fields ? { ...options.fields(posted), ...options.also } : values;
  return formActionOn(values, schema, act, options, input);
}

/** `formAction` on fields already read from the request (a page that also reads a file). */
export async function formActionOn<S extends z.ZodType>(
  values: Record<string, string>,
  schema: S,
  act: (input: z.output<S>) => Promise<FormSuccess>,
  options: FormActionOptions = {},
  /** What the schema reads, where it is not `values` (`fields`). */
  input: Record<string, unknown> = values,
) {
  const form = options.form ?? {};
  const failed = (
    errors: Record<string, string>,
    message: string | null,
    link?: FormOutcome["link"],
  ) =>
    ({
      ok: false,
      values: { ...shown(values), ...form },
      errors,
      message,
      ...(link ? { link } : {}),
    }) satisfies FormOutcome;
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const errors = issuesToFieldErrors(parsed.error.issues);
    return data(failed(errors, options.validationMessage?.(errors) ?? null), 422);
  }
  try {
    const success = await act(parsed.data);
    const { message, link } = typeof success === "string" ? { message: success } : success;
    return data({
      ok: true,
      values: form,
      errors: {},
      message,
      ...(link ? { link } : {}),
      ...(options.next ? { next: options.next } : {}),
    } satisfies FormOutcome);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const errors = error instanceof ValidationError ? error.errors : {};
    const message =
      error instanceof ValidationError && options.validationMessage
        ? options.validationMessage(errors)
        : (options.failureMessage?.(error) ?? error.message);
    const headers: Record<string, string> =
      error instanceof TooManyAttemptsError
        ? { "Retry-After": String(error.retryAfterSeconds) }
        : {};
    return data(failed(errors, message, options.failureLink?.(error)), {
      status: HTTP_STATUS_OF[error.kind],
      headers,
    });
  }
}

/** The answer to a post naming no form of its page (its `intent`): a client's mistake, 400. */
export function unknownFormAnswer() {
  return data(
    {
      ok: false,
      values: {},
      errors: {},
      message: "This form cannot be sent here.",
    } satisfies FormOutcome,
    400,
  );
}
