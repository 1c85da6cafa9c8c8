import type { DbOrTx } from "../../../db/index.ts";
import * as repo from "./repository.ts";

/** How long push messages (with their deliveries) and speed timings are kept (record 0109). */
export const PUSH_HISTORY_DAYS = 30;

/** The nightly sweep's part: pushes and timings older than 30 days. Answers the messages deleted. */
export function deleteOldPushHistory(db: DbOrTx, at: Date): Promise<number> {
  return repo.deleteOlderThan(db, new Date(at.getTime() - PUSH_HISTORY_DAYS * 86_400_000));
}
