import cluster from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";

/**
 * One scrape of `npm start` with several server processes (server/cluster.ts) sums them all
 * (docs/decisions/0094-metrics.md). node:cluster hands the scrape's connection to any worker; that
 * worker asks the primary, whose AggregatorRegistry (prom-client) gathers every worker's registries
 * over IPC, adds them up by each family's aggregator, and the text comes back to answer.
 */
const ASK = "chalkboard:metrics-ask";
const ANSWER = "chalkboard:metrics-answer";
/** The primary gives up on a worker that does not answer after 5 s (prom-client's own limit). */
const ANSWER_TIMEOUT_MS = 7000;

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** The primary: answers each worker's ask with the sum of every worker's metrics. */
export function sumWorkersMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== ASK) return;
    const reply = (answer: Omit<Answer, "type" | "id">) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
}

/** A worker: offers `registries` to the primary's sums (prom-client answers its requests). */
export function offerToPrimary(registries: Registry[]): void {
  // Constructed in a worker, it listens for the primary's requests for this process's metrics.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries(registries);
}

let asked = 0;
const waiting = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
let listening = false;

/** A worker: the sum of every worker's metrics, from the primary. */
export function askPrimary(): Promise<string> {
  if (!listening) {
    listening = true;
    process.on("message", (message: Partial<Answer>) => {
      if (message?.type !== ANSWER || message.id === undefined) return;
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) pending?.reject(new Error(message.error));
      else pending?.resolve(message.text ?? "");
    });
  }
  const id = ++asked;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error("the primary process did not answer in time"));
    }, ANSWER_TIMEOUT_MS);
    const settle =
      <T>(done: (value: T) => void) =>
      (value: T) => {
        clearTimeout(timer);
        done(value);
      };
    waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
    process.send!({ type: ASK, id }, undefined, {}, (error) => {
      if (error) waiting.get(id)?.reject(error);
    });
  });
}
