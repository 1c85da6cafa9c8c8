import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyPluginAsync } from "fastify";
import { recordAudit, SHELL_ACTOR } from "../../core/audit/audit-trail.ts";
import { hasRole } from "../../core/auth/policy.ts";
import { createBackup, type BackupSource } from "../../core/backup/create.ts";
import { BACKUP_PATH } from "../../core/backup/from-server.ts";
import { BackupError } from "../../core/backup/manifest.ts";
import { BACKUP_TOKEN_HEADER, type BackupAccess } from "../../core/backup/server-access.ts";
import type { Db } from "../../db/index.ts";

export interface BackupRoutesOptions {
  db: Db;
  source: BackupSource;
  /** The token `npm run backup` reads from DATA_DIR (core/backup/server-access.ts), once published. */
  access: () => BackupAccess | undefined;
  now: () => Date;
}

/**
 * `GET /api/admin/backup`: the whole site as one backup archive (docs/decisions/0096-backups.md),
 * for an administrator's session (the console's "Download a backup") or for `npm run backup` with
 * the token of DATA_DIR/backup-access.json. On the embedded database this is the only way to a
 * consistent copy while the site runs: this process owns DATA_DIR (db/lock.ts).
 */
export const backupRoutes: FastifyPluginAsync<BackupRoutesOptions> = async (
  app,
  { db, source, access, now },
) => {
  app.get(BACKUP_PATH, { compress: false }, async (request, reply) => {
    const token = request.headers[BACKUP_TOKEN_HEADER];
    const byShell = typeof token === "string" && access()?.accept(token) === true;
    if (!byShell) {
      if (typeof token === "string") {
        return reply.code(401).send({
          status: false,
          message:
            "That backup token is not the current one of DATA_DIR/backup-access.json (each is good for one backup): run the command again.",
        });
      }
      if (!request.user) {
        return reply
          .code(401)
          .send({ status: false, message: "Sign in as an administrator to download a backup." });
      }
      if (!hasRole(request.user, "admin")) {
        return reply
          .code(403)
          .send({ status: false, message: "Only an administrator can download a backup." });
      }
    }
    // Before the snapshot, so that the backup holds its own record.
    await recordAudit(db, byShell ? SHELL_ACTOR : request.user!, {
      action: "site.backup",
      itemType: "backup",
    });
    const stamp = now().toISOString().replace(/[:.]/g, "-");
    const fileName = `chalkboard-deals-backup-${stamp}.tar`;
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "chalkboard-download-"));
    const file = path.join(dir, fileName);
    const removeDir = () => void fs.promises.rm(dir, { recursive: true, force: true });
    try {
      await createBackup(source, file, now);
    } catch (error) {
      removeDir();
      request.log.error({ err: error }, "backup failed");
      return reply.code(500).send({
        status: false,
        message:
          error instanceof BackupError ? error.message : "The backup failed: see the server's log.",
      });
    }
    const { size } = await fs.promises.stat(file);
    const stream = fs.createReadStream(file);
    stream.once("close", removeDir);
    return reply
      .header("content-type", "application/x-tar")
      .header("content-length", size)
      .header("content-disposition", `attachment; filename="${fileName}"`)
      .header("cache-control", "no-store")
      .send(stream);
  });
};
