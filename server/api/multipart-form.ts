import type { FastifyRequest } from "fastify";
import { DomainError, ValidationError } from "../../core/errors.ts";

export interface FormInput {
  /**
   * Text fields by name (the last value wins when a name repeats); from a JSON body, a list or an
   * object as sent, for the call's schema to refuse.
   */
  fields: Record<string, unknown>;
  /** The bytes of the file field, or undefined when none was chosen. */
  file?: Buffer;
}

/** Error codes of @fastify/multipart for a file over `limits.fileSize` or too many files. */
const TOO_LARGE = new Set(["FST_REQ_FILE_TOO_LARGE", "FST_FILES_LIMIT"]);

/** A truncated or malformed multipart body: the client's problem, answered 400. */
class UnreadableFormError extends Error {
  readonly statusCode = 400;
  constructor() {
    super("The form could not be read. Please try again.");
  }
}

/**
 * Reads a multipart/form-data body (an image upload) or, for clients that send no file, a JSON
 * body. At most one file is read, from `fileField`; an oversized file is a 422 on that field, not
 * a 413, so the form can show it beside the input. Whether the bytes are an image is checked by
 * `storeUploadedImage`, not here.
 */
export async function readForm(
  request: FastifyRequest,
  fileField: string,
  tooLargeMessage: string,
): Promise<FormInput> {
  if (!request.isMultipart()) {
    const body = request.body;
    const entries = body && typeof body === "object" ? Object.entries(body) : [];
    // A number or true/false reads as the text a form sends for it. A list or an object, which no
    // form can send, is kept: dropped, it read as a field left empty, and an optional field was
    // then saved empty instead of refused (core/validation.ts, NOT_TEXT_MESSAGE).
    const fields = Object.fromEntries(
      entries
        .filter(([, value]) => value !== null && value !== undefined)
        .map(([name, value]) => [name, typeof value === "object" ? value : String(value)]),
    );
    return { fields };
  }
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === "file") {
        const bytes = await part.toBuffer();
        // An empty file input still sends a part with no name and no bytes.
        if (part.fieldname === fileField && bytes.length > 0) file = bytes;
      } else if (typeof part.value === "string") {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code && TOO_LARGE.has(code)) throw new ValidationError({ [fileField]: tooLargeMessage });
    const status = (error as { statusCode?: number }).statusCode;
    if (error instanceof DomainError || (status && status >= 400 && status < 500)) throw error;
    throw new UnreadableFormError();
  }
  return { fields, file };
}
