import fs from "node:fs";
import type { IncomingMessage } from "node:http";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../../core/deps.ts";
import { createVariantMaker, type VariantMaker } from "../../core/media/variant-maker.ts";
import { isMediaPath, type S3MediaStorage } from "../../core/media/storage.ts";
import { negotiatedVariantTarget } from "../../core/media/variants.ts";
import { acceptedVariantFormat } from "../accept-header.ts";

const MEDIA_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/** Requests whose URL named a variant without its format, rewritten to the AVIF or WebP file. */
const negotiated = new WeakSet<IncomingMessage>();

/**
 * Fastify's `rewriteUrl` (server/app.ts), before routing: a negotiated variant URL
 * (`/media/<stem>.<W>x<H>.w<w>`, core/media/variants.ts) becomes the URL of its AVIF or WebP file,
 * as the request's Accept header allows, query kept; every other URL is returned as it is. So the
 * folder, the bucket and the made-on-first-request paths below serve it unchanged, and each of
 * their answers says `Vary: Accept` (see mediaPlugin).
 */
export function negotiateMediaUrl(req: IncomingMessage): string {
  const url = req.url ?? "/";
  if (!url.startsWith("/media/")) return url;
  const queryAt = url.indexOf("?");
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  const target = negotiatedVariantTarget(pathname, acceptedVariantFormat(req.headers.accept));
  if (!target) return url;
  negotiated.add(req);
  return queryAt === -1 ? target : target + url.slice(queryAt);
}

/** Adds `field` to the reply's Vary header, keeping whatever it already names. */
export function addVary(reply: FastifyReply, field: string) {
  const current = reply.getHeader("vary");
  const fields = (Array.isArray(current) ? current.join(",") : String(current ?? ""))
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const lower = field.toLowerCase();
  if (fields.some((name) => name === "*" || name.toLowerCase() === lower)) return;
  reply.header("vary", [...fields, field].join(", "));
}

/** The media path a request names (its URL after /media/, undecoded: stored names are ASCII). */
function requestedPath(request: FastifyRequest): string {
  return request.url.split("?")[0]!.slice("/media/".length);
}

/**
 * A missing file: a responsive variant not made yet is made now and kept (core/media/variant-maker.ts);
 * anything else is a 404.
 */
async function sendVariantOr404(
  variants: VariantMaker,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const relative = requestedPath(request);
  const made =
    (request.method === "GET" || request.method === "HEAD") && isMediaPath(relative)
      ? await variants.get(relative)
      : null;
  if (!made) return reply.code(404).send({ status: false, message: "No such image." });
  return reply
    .type(`image/${made.format}`)
    .header("cache-control", `public, max-age=${MEDIA_MAX_AGE_SECONDS}`)
    .header("x-content-type-options", "nosniff")
    .send(made.data);
}

/**
 * /media/: the stored images. Kept in a folder, they are served as files; kept in a bucket
 * (S3_BUCKET), each is streamed from it, so a page may link /media/ whichever storage holds them
 * (docs/decisions/0046-media-storage.md). A responsive variant that is not there yet (the demo
 * content's, see core/media/variant-maker.ts) is made on its first request and kept, so the next
 * one is a plain file again; any other missing file is a 404. Registered with the prefix /media.
 */
export const mediaPlugin: FastifyPluginAsync<Pick<Deps, "media" | "log">> = async (scope, deps) => {
  const { media } = deps;
  const variants = createVariantMaker(deps);
  if (media.kind === "folder") fs.mkdirSync(media.dir, { recursive: true });
  // A negotiated URL's answer depends on Accept: caches (the browser's, a proxy's) must keep
  // the AVIF and the WebP apart. Every answer, 304s, made variants and 404s included.
  scope.addHook("onSend", async (request, reply, payload) => {
    if (negotiated.has(request.raw)) addVary(reply, "Accept");
    return payload;
  });
  if (media.kind === "folder") {
    await scope.register(fastifyStatic, {
      root: media.dir,
      prefix: "/",
      decorateReply: false,
      index: false,
      maxAge: MEDIA_MAX_AGE_SECONDS * 1000,
      setHeaders: (reply) => reply.header("x-content-type-options", "nosniff"),
    });
  } else {
    scope.get("/*", (request, reply) => sendFromBucket(media, variants, request, reply));
  }
  scope.setNotFoundHandler((request, reply) => sendVariantOr404(variants, request, reply));
};

async function sendFromBucket(
  media: S3MediaStorage,
  variants: VariantMaker,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const relative = requestedPath(request);
  if (!isMediaPath(relative)) {
    return reply.code(404).send({ status: false, message: "No such image." });
  }
  let object;
  try {
    object = await media.open(relative);
  } catch (error) {
    request.log.error({ msg: `could not read ${relative} from the media bucket`, err: error });
    return reply
      .code(503)
      .header("retry-after", "5")
      .send({ status: false, message: "Images are unavailable for a moment. Please try again." });
  }
  if (!object) return sendVariantOr404(variants, request, reply);
  reply
    .type(object.contentType)
    .header("cache-control", `public, max-age=${MEDIA_MAX_AGE_SECONDS}`)
    .header("x-content-type-options", "nosniff");
  if (object.etag) reply.header("etag", object.etag);
  if (object.lastModified) reply.header("last-modified", object.lastModified.toUTCString());
  if (object.etag && request.headers["if-none-match"] === object.etag) {
    object.body.destroy();
    return reply.code(304).send();
  }
  if (object.contentLength !== undefined) reply.header("content-length", object.contentLength);
  return reply.send(object.body);
}
