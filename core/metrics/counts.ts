import type { MailOutcome } from "../mail/delivery-repository.ts";

/**
 * What core code counts for the Prometheus metrics, without knowing of Prometheus
 * (docs/decisions/0094-metrics.md): core says that something happened, and whoever holds this
 * process's metrics (server/metrics/registry.ts) listens. With nobody listening a count is a
 * no-op, so services, jobs and commands run the same with or without metrics.
 */
type MailListener = (outcome: MailOutcome) => void;

const mailListeners = new Set<MailListener>();

/** One mail sent, given up on (failed) or not sent to an undeliverable address (suppressed). */
export function countMailOutcome(outcome: MailOutcome): void {
  for (const listener of mailListeners) listener(outcome);
}

/** Hears every mail outcome counted in this process until the returned function is called. */
export function onMailOutcome(listener: MailListener): () => void {
  mailListeners.add(listener);
  return () => void mailListeners.delete(listener);
}
