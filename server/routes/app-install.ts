import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyPluginAsync } from "fastify";
import { APP_ICON_PREFIX, APP_ICONS, NOTIFICATION_ICON } from "../../core/app-install/manifest.ts";
import type { Services } from "../../core/services.ts";
import { offlinePageHtml } from "../service-worker/offline-page.ts";
import { serviceWorkerScript } from "../service-worker/worker-script.ts";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
/** The client build's hashed files, which the worker precaches. */
export const CLIENT_ASSETS_DIR = path.join(projectRoot, "build/client/assets");

/** Where the worker and the page it shows offline are served. */
export const SERVICE_WORKER_PATH = "/sw.js";
export const OFFLINE_PAGE_PATH = "/offline";
export const OFFLINE_SAVED_DEALS_PATH = "/api/offline_saved_deals";
/** Requests that sign a member out: the worker drops the member's offline list on seeing one. */
const SIGN_OUT_PATHS = ["/logout", "/api/logout"];

/** An icon under its current version's address never changes; under another, it may. */
const VERSIONED_ICON_CACHE = "public, max-age=31536000, immutable";
const ICON_CACHE = "public, max-age=3600";

/**
 * The build's scripts and style sheets, as /assets/… paths: read once, when the server starts, so
 * the worker's bytes (and so its version) change with every build. None before a build (tests
 * without pages, development), when the worker precaches only the offline page.
 */
export function clientAssetPaths(dir = CLIENT_ASSETS_DIR): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => /\.(js|css)$/.test(file))
    .sort()
    .map((file) => `/assets/${file}`);
}

/**
 * The installable app's files (docs/decisions/0108-installable-app.md): the web app manifest, its
 * icons, the service worker and its offline page. The JSON call for the offline list is in
 * server/api/app-install.ts.
 */
export const appInstallRoutes: FastifyPluginAsync<{
  services: Services;
  assetsDir?: string;
}> = async (app, { services, assetsDir }) => {
  const workerScript = serviceWorkerScript({
    precache: [OFFLINE_PAGE_PATH, NOTIFICATION_ICON, ...clientAssetPaths(assetsDir)],
    offlinePath: OFFLINE_PAGE_PATH,
    savedDealsPath: OFFLINE_SAVED_DEALS_PATH,
    iconPath: NOTIFICATION_ICON,
    signOutPaths: SIGN_OUT_PATHS,
  });

  app.get("/manifest.webmanifest", { config: { cacheSeconds: 300 } }, async (_request, reply) =>
    reply
      .type("application/manifest+json; charset=utf-8")
      .send(JSON.stringify(await services.appInstall.manifest())),
  );

  const iconFiles = new Set(APP_ICONS.map((icon) => icon.file));
  app.get<{ Params: { file: string }; Querystring: { v?: string } }>(
    `${APP_ICON_PREFIX}:file`,
    async (request, reply) => {
      if (!iconFiles.has(request.params.file)) {
        return reply.code(404).type("text/plain; charset=utf-8").send("Not Found");
      }
      const { bytes, version } = await services.appInstall.icon(request.params.file);
      if (!bytes) return reply.code(404).type("text/plain; charset=utf-8").send("Not Found");
      const etag = `"${version}"`;
      reply
        .header("cache-control", request.query.v === version ? VERSIONED_ICON_CACHE : ICON_CACHE)
        .header("etag", etag);
      if (request.headers["if-none-match"] === etag) return reply.code(304).send();
      return reply.type("image/png").send(bytes);
    },
  );

  // Browsers look for a new worker on each visit (at most once a day they skip the HTTP cache
  // anyway); no-cache makes every look a revalidation, so a new build is picked up at once.
  app.get(SERVICE_WORKER_PATH, async (_request, reply) =>
    reply
      .header("cache-control", "no-cache")
      .type("text/javascript; charset=utf-8")
      .send(workerScript),
  );

  app.get(OFFLINE_PAGE_PATH, async (_request, reply) => {
    const settings = await services.settings.get();
    return reply
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(offlinePageHtml(settings.websiteName, NOTIFICATION_ICON, settings.colors));
  });
};
