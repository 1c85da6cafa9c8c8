import type { Config } from "../config/env.ts";
import type { Db } from "../db/index.ts";
import type { ChangeFeed } from "./cache/changes.ts";
import type { JobQueue } from "./jobs/queue.ts";
import type { MediaStorage } from "./media/storage.ts";
import type { MailQueue } from "./mail/queue.ts";

/** What every feature service is built from: one set per process (tests build their own). */
export interface Deps {
  db: Db;
  config: Config;
  /** Outgoing mail: queued (in the writer's transaction) and sent by a job, never in the request. */
  mail: MailQueue;
  /** Background work that must not be lost (core/jobs/queue.ts). */
  jobs: JobQueue;
  /** Writers report committed changes here; caches subscribe (core/cache/changes.ts). */
  changes: ChangeFeed;
  /**
   * Where uploaded and generated images live, served at /media/: DATA_DIR/media, or the bucket of
   * S3_BUCKET (core/media/storage.ts). Every write, read and removal of media goes through it.
   */
  media: MediaStorage;
  log: { info(msg: string): void; warn(msg: string): void; error(msg: string | object): void };
  /** The current time; tests may pin it. */
  now: () => Date;
}
