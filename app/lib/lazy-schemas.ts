import { loadChunk } from "./chunks.tsx";

/**
 * Form schemas loaded on use: a form kit schema (useApiForm) may be a function that resolves to
 * it, and these load the chunk that holds it, with zod, when the form is first sent. A chunk that
 * cannot arrive rejects with ChunkLoadError; the form is then sent unchecked and the server, which
 * runs the same rules, answers the field messages (docs/decisions/0051-javascript-budget.md).
 */

/** The deal page's comment box and report dialog. */
export function postFormSchemas() {
  return loadChunk("post-form-schemas", () => import("./post-form-schemas.ts"));
}
