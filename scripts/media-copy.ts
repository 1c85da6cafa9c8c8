// `npm run media:copy`: copies every file of DATA_DIR/media into the bucket that S3_BUCKET and the
// other S3_* variables name, the move from one machine's disk to object storage
// (docs/decisions/0046-media-storage.md). Run it again to resume or to check: what is already
// there with the same size is skipped. Exit code 1 when a file could not be copied.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig } from "../config/env.ts";
import { copyMediaFolder, MediaSourceError, progressLine } from "../core/media/copy.ts";
import { createMediaStorage } from "../core/media/storage.ts";
import { createLogger } from "../core/log/logger.ts";

/** `logStream`: where the progress lines go instead of standard output (tests that read them). */
export async function runMediaCopy(
  env = process.env,
  logStream?: { write(line: string): void },
): Promise<number> {
  try {
    // Its progress is what it is run for: info unless LOG_LEVEL says otherwise.
    const config = loadConfig({ ...env, LOG_LEVEL: env.LOG_LEVEL || "info" });
    // The site's log format (core/log/logger.ts): one JSON object a line, secrets redacted.
    const log = createLogger({
      level: config.logLevel,
      ...(logStream ? { stream: logStream } : {}),
    });
    if (!config.s3) {
      console.error(
        "S3_BUCKET is not set: media:copy copies DATA_DIR/media into the bucket named by S3_BUCKET (with S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and, for a server other than AWS, S3_ENDPOINT).",
      );
      return 1;
    }
    const sourceDir = path.join(config.dataDir, "media");
    const target = createMediaStorage(config);
    log.info(`copying ${sourceDir} into the bucket ${config.s3.bucket}`);
    const result = await copyMediaFolder({
      sourceDir,
      target,
      progressEvery: 500,
      log: (line) => log.info(line),
    });
    log.info(`done: ${progressLine(result)}`);
    if (result.failed > 0) console.error("Some files were not copied: run it again to retry them.");
    return result.failed > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof MediaSourceError) {
      console.error(error.message);
      return 1;
    }
    console.error(`Could not copy the media: ${(error as Error).message}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await runMediaCopy();
}
