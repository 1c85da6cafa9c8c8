import { Component, lazy, type ComponentType, type ReactNode } from "react";
import { CHUNK_LOAD_TIMEOUT_MS } from "../../core/constants.ts";

/** A script chunk that did not arrive (offline, a new deployment, or over the time limit). */
export class ChunkLoadError extends Error {
  override name = "ChunkLoadError";
  constructor(readonly chunk: string) {
    super(`Loading chunk ${chunk} failed`);
  }
}

/** Rejects with ChunkLoadError when `load` fails or takes longer than `timeoutMs`. */
export function loadChunk<T>(
  chunk: string,
  load: () => Promise<T>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(chunk)), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        reject(new ChunkLoadError(chunk));
      },
    );
  });
}

/** React.lazy over loadChunk: a widget whose chunk fails throws ChunkLoadError to its boundary. */
export function lazyChunk<P extends object>(
  chunk: string,
  load: () => Promise<{ default: ComponentType<P> }>,
) {
  return lazy(() => loadChunk(chunk, load));
}

/** The spec's report for a failed chunk, for any error that is one; null otherwise. */
export function chunkFailureMessage(error: unknown): string | null {
  if (error instanceof Error && error.name === "ChunkLoadError") return error.message;
  // A route module that failed outside lazyChunk: the browser's own wording names its URL.
  const message = error instanceof Error ? error.message : "";
  const match = /dynamically imported module:?\s*(\S+)|Importing a module script failed/i.exec(
    message,
  );
  if (!match) return null;
  const file =
    match[1]
      ?.split("/")
      .pop()
      ?.replace(/\.js.*$/, "") ?? "module";
  return `Loading chunk ${file} failed`;
}

/**
 * Keeps a page working when one of its lazily loaded widgets cannot load: shows `fallback` (the
 * plain, server-rendered form of the widget) and reports the failure in the console.
 */
export class ChunkBoundary extends Component<
  { fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error(chunkFailureMessage(error) ?? error);
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
