import type { Config } from "../config/env.ts";
import type { Db } from "../db/index.ts";
import type { Mailer } from "./mail/mailer.ts";

/** What every feature service is built from: one set per process (tests build their own). */
export interface Deps {
  db: Db;
  config: Config;
  mailer: Mailer;
  /** Where uploaded and generated images live; served at /media/. */
  mediaDir: string;
  log: { info(msg: string): void; warn(msg: string): void; error(msg: string | object): void };
  /** The current time; tests may pin it. */
  now: () => Date;
}
