import fs from "node:fs";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../core/deps.ts";
import { createVariantMaker } from "../../core/media/variant-maker.ts";

const MEDIA_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/**
 * /media/: the stored images, as files. A responsive variant that is not there yet (the demo
 * content's, see core/media/variant-maker.ts) is made on its first request and kept, so the next
 * one is a plain file again; any other missing file is a 404.
 */
export async function registerMedia(app: FastifyInstance, deps: Pick<Deps, "mediaDir" | "log">) {
  fs.mkdirSync(deps.mediaDir, { recursive: true });
  const variants = createVariantMaker(deps);
  await app.register(
    async (media) => {
      await media.register(fastifyStatic, {
        root: deps.mediaDir,
        prefix: "/",
        decorateReply: false,
        index: false,
        maxAge: MEDIA_MAX_AGE_SECONDS * 1000,
        setHeaders: (reply) => reply.header("x-content-type-options", "nosniff"),
      });
      media.setNotFoundHandler(async (request, reply) => {
        // Variant names are plain ASCII: an encoded or odd path is simply not one.
        const relative = request.url.split("?")[0]!.slice("/media/".length);
        const made =
          request.method === "GET" || request.method === "HEAD"
            ? await variants.get(relative)
            : null;
        if (!made) return reply.code(404).send({ status: false, message: "No such image." });
        return reply
          .type(`image/${made.format}`)
          .header("cache-control", `public, max-age=${MEDIA_MAX_AGE_SECONDS}`)
          .header("x-content-type-options", "nosniff")
          .send(made.data);
      });
    },
    { prefix: "/media" },
  );
}
