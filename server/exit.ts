/**
 * Ends the process with `code` once what is still open has closed, instead of process.exit():
 * Node 24 can hang for good inside process.exit() while a compiler thread waits for a collection
 * only the main thread could run; the event loop's own end lets it run
 * (docs/decisions/0103-exit-by-draining.md). Everything the caller opened must be closed first; a
 * handle left open is ended by process.exit() after EXIT_BACKSTOP_MS all the same.
 */
export function endProcess(code: number): void {
  process.exitCode = code;
  // A node:cluster worker's channel to its primary keeps the loop alive: close it too.
  if (process.connected) process.disconnect?.();
  setTimeout(() => process.exit(code), EXIT_BACKSTOP_MS).unref();
}

const EXIT_BACKSTOP_MS = 5000;
