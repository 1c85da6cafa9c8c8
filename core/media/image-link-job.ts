import { sql } from "kysely";
import type { Db } from "../../db/index.ts";
import type { ChangeFeed } from "../cache/changes.ts";
import type { Config } from "../../config/env.ts";
import { defineJob } from "../jobs/job.ts";
import { insertMediaRecord } from "./image-records.ts";
import { removeStoredImages, type MediaFolder } from "./images.ts";
import { MEDIA_URL_PREFIX } from "./media-path.ts";
import { copyImageLink, type CopiedImageLink } from "./outside-images.ts";
import type { MediaStorage } from "./storage.ts";

/**
 * Pictures stored as outside addresses before they were copied on writing
 * (docs/decisions/0074-images-in-user-html.md): a post's picture link (`deal_image`) and a
 * member's picture from a sign-in provider. Until copied they are not shown (siteImage,
 * core/media/media-path.ts); this job copies each once, through the same path as a new post's
 * (copyImageLink), in batches, and stores the copy's /media/ URL, or nothing when the image cannot
 * be copied, so that it is never tried again. With nothing left, a run is one query per table.
 */
export const imageLinkCopyJob = defineJob<Record<string, never>>({
  name: "media.copy-image-links",
  cron: "*/10 * * * *",
  // The next run, ten minutes on, is the retry; a run stops well before it (RUN_BUDGET_MS).
  retryLimit: 0,
  timeoutSeconds: 15 * 60,
  keepSeconds: 6 * 3600,
});

export const IMAGE_LINK_BATCH = {
  /** Rows read at once. */
  size: 20,
  /** Copies fetched at once (each bounded as one post's images are, core/media/outside-images.ts). */
  concurrency: 4,
  /** A run stops taking batches after this long, well inside the ten minutes between runs. */
  runBudgetMs: 5 * 60_000,
};

export interface ImageLinkCopyDeps {
  db: Db;
  media: MediaStorage;
  config: Pick<Config, "publicUrl" | "mediaBaseUrl" | "linkCheckAllowLoopback">;
  log: { info(msg: string): void; warn(msg: string): void };
  changes: ChangeFeed;
}

interface PendingLink {
  id: number;
  url: string;
  /** Whose upload the copy becomes (the poster; the member), so it goes when they let go of it. */
  ownerId: number | null;
  folder: MediaFolder;
}

/**
 * A stored picture that is not the site's media: neither empty nor /media/… (a null one is not
 * either). posts_outside_picture_idx (migration 030) holds the posts it admits.
 */
const isOutsidePicture = sql<boolean>`image_url <> '' and image_url not like ${`${MEDIA_URL_PREFIX}%`}`;

/** The next posts with an outside picture after `afterId`, read through their index. */
export const outsidePostPictures = (db: Db, afterId: number, limit: number) =>
  db
    .selectFrom("posts")
    .select(["id", "image_url", "user_id", "post_type"])
    .where(isOutsidePicture)
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();

const outsideMemberPictures = (db: Db, afterId: number, limit: number) =>
  db
    .selectFrom("users")
    .select(["id", "image_url"])
    .where(isOutsidePicture)
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();

interface Table {
  name: "posts" | "users";
  /** What the log calls a row. */
  noun: string;
  next(db: Db, afterId: number, limit: number): Promise<PendingLink[]>;
  /** Stores the copy (or no picture) unless the row's picture changed meanwhile; whether it did. */
  settle(db: Db, link: PendingLink, url: string | null): Promise<boolean>;
}

const TABLES: Table[] = [
  {
    name: "posts",
    noun: "post",
    async next(db, afterId, limit) {
      return (await outsidePostPictures(db, afterId, limit)).map((row) => ({
        id: row.id,
        url: row.image_url,
        ownerId: row.user_id,
        folder: row.post_type === "g" ? "discussions" : "deals",
      }));
    },
    async settle(db, link, url) {
      const result = await db
        .updateTable("posts")
        .set({ image_url: url ?? "" })
        .where("id", "=", link.id)
        .where("image_url", "=", link.url)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  },
  {
    name: "users",
    noun: "member",
    async next(db, afterId, limit) {
      return (await outsideMemberPictures(db, afterId, limit)).map((row) => ({
        id: row.id,
        url: row.image_url ?? "",
        ownerId: row.id,
        folder: "avatars",
      }));
    },
    async settle(db, link, url) {
      const result = await db
        .updateTable("users")
        .set({ image_url: url })
        .where("id", "=", link.id)
        .where("image_url", "=", link.url)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  },
];

/** Copies one row's picture and stores the outcome; returns whether the row changed. */
async function copyOne(deps: ImageLinkCopyDeps, table: Table, link: PendingLink) {
  const avatar = table.name === "users";
  // Each picture once: a post's with the variants of its cards and page, a member's as an avatar.
  const copy: CopiedImageLink = await copyImageLink(deps, link.url, link.folder, {
    variants: !avatar,
    maxSize: avatar ? 512 : undefined,
  });
  let settled = false;
  try {
    settled = await deps.db.transaction().execute(async (tx) => {
      const done = await table.settle(tx, link, copy.url);
      if (done && copy.stored && link.ownerId !== null) {
        await insertMediaRecord(tx, link.ownerId, copy.stored);
      }
      return done;
    });
  } finally {
    if (!settled && copy.stored) await removeStoredImages(deps, [copy.stored]);
  }
  if (settled && !copy.url) {
    deps.log.info(
      `The picture of ${table.noun} ${link.id} (${link.url.slice(0, 200)}) was not copied: ` +
        `${copy.reason ?? "unknown reason"}; it is shown without one.`,
    );
  }
  return settled;
}

/** One run: every table's outside pictures, batch by batch, until none is left or time is up. */
export function copyImageLinks(deps: ImageLinkCopyDeps, batch = IMAGE_LINK_BATCH) {
  return async () => {
    const started = Date.now();
    for (const table of TABLES) {
      let afterId = 0;
      let settled = 0;
      while (Date.now() - started < batch.runBudgetMs) {
        const links = await table.next(deps.db, afterId, batch.size);
        if (!links.length) break;
        afterId = links[links.length - 1]!.id;
        for (let i = 0; i < links.length; i += batch.concurrency) {
          const group = links.slice(i, i + batch.concurrency);
          const outcomes = await Promise.all(group.map((link) => copyOne(deps, table, link)));
          settled += outcomes.filter(Boolean).length;
        }
      }
      if (settled) {
        // Cards and pages cached before show the copies (or no picture) from now on.
        deps.changes.emit(table.name);
        deps.log.info(`image links: settled the pictures of ${settled} ${table.noun}s`);
      }
    }
  };
}
