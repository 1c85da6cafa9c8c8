import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../core/constants.ts";
import { IMAGE_MESSAGES } from "../../core/posts/submissions/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { mediaFiles, multipartBody, pngImage, type FilePart } from "../helpers/multipart.ts";
import { TestClient } from "../helpers/session.ts";

/**
 * Images sent with deals and discussions: only real images, at most 5 MB, and a refused or failed
 * submission leaves neither a file under the media folder nor a row behind.
 */
let t: TestApp;
let client: TestClient;
let userId: number;
let fields: { deal: Record<string, string | number>; discussion: Record<string, string | number> };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.deps.db;
  userId = (
    await db.selectFrom("users").select("id").orderBy("id").offset(1).executeTakeFirstOrThrow()
  ).id;
  client = new TestClient(t.app);
  await client.signInAs(db, userId);
  const dealCategory = await db
    .selectFrom("forum_categories")
    .select("id")
    .where("kind", "=", "deal")
    .executeTakeFirstOrThrow();
  const discussionCategory = await db
    .selectFrom("forum_categories")
    .select("id")
    .where("kind", "=", "discussion")
    .executeTakeFirstOrThrow();
  const store = await db.selectFrom("stores").select("id").executeTakeFirstOrThrow();
  const category = await db.selectFrom("categories").select("id").executeTakeFirstOrThrow();
  fields = {
    deal: {
      user_id: userId,
      deal_category: dealCategory.id,
      store_id: store.id,
      category_id: category.id,
      title: "Upload check",
      deal_description: "<p>Checking uploads.</p>",
    },
    discussion: {
      user_id: userId,
      forum_category_id: discussionCategory.id,
      title: "Upload check",
      detail: "<p>Checking uploads.</p>",
    },
  };
});
afterAll(async () => {
  await t?.close();
});

async function counts() {
  const [posts, media] = await Promise.all([
    t.deps.db
      .selectFrom("posts")
      .select(sql<number>`count(*)`.as("n"))
      .executeTakeFirstOrThrow(),
    t.deps.db
      .selectFrom("media")
      .select(sql<number>`count(*)`.as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    posts: Number(posts.n),
    media: Number(media.n),
    files: [...mediaFiles(t.mediaDir, "deals"), ...mediaFiles(t.mediaDir, "discussions")],
  };
}

function url(kind: "deal" | "discussion") {
  return kind === "deal" ? "/api/save_deal" : "/api/save_discussion";
}

async function send(url: string, form: Record<string, string | number>, file: FilePart) {
  const body = await multipartBody(form, file);
  return client.request({ method: "POST", url, payload: body.payload, headers: body.headers });
}

const refused: { name: string; file: () => Promise<FilePart>; message: string }[] = [
  {
    name: "a text file named x.png with type image/png",
    file: async () => ({
      name: "x.png",
      type: "image/png",
      bytes: Buffer.from("just some text, not an image at all"),
    }),
    message: IMAGE_MESSAGES.notImage,
  },
  {
    name: "an SVG with an onload handler",
    file: async () => ({
      name: "logo.svg",
      type: "image/svg+xml",
      bytes: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" width="10" height="10"><rect width="10" height="10"/></svg>`,
      ),
    }),
    message: IMAGE_MESSAGES.notImage,
  },
  {
    name: "an HTML page disguised as a JPEG",
    file: async () => ({
      name: "photo.jpg",
      type: "image/jpeg",
      bytes: Buffer.from("<html><script>alert(1)</script></html>"),
    }),
    message: IMAGE_MESSAGES.notImage,
  },
  {
    name: "a PNG header followed by garbage",
    file: async () => ({
      name: "broken.png",
      type: "image/png",
      bytes: Buffer.concat([(await pngImage()).subarray(0, 16), Buffer.alloc(200, 7)]),
    }),
    message: "This image could not be read. Please choose another file.",
  },
  {
    name: "a file over 5 MB",
    file: async () => ({
      name: "huge.png",
      type: "image/png",
      bytes: Buffer.concat([await pngImage(), Buffer.alloc(MAX_UPLOAD_BYTES + 1024)]),
    }),
    message: IMAGE_MESSAGES.tooLarge,
  },
];

for (const kind of ["deal", "discussion"] as const) {
  const endpoint = url(kind);
  describe(`${endpoint} refuses what is not an acceptable image`, () => {
    for (const { name, file, message } of refused) {
      it(name, async () => {
        const before = await counts();
        const response = await send(
          endpoint,
          { ...fields[kind], title: `${kind}: ${name}` },
          await file(),
        );
        expect(response.statusCode).toBe(422);
        expect(response.json()).toEqual({ status: false, message, errors: { image: message } });
        expect(await counts()).toEqual(before);
      });
    }
  });
}

describe("a failure after the image was stored", () => {
  it("removes the file again when the database refuses the post", async () => {
    // A trigger that fails every insert into posts stands in for any database failure.
    await sql`CREATE FUNCTION test_refuse_post() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by test'; END $$`.execute(t.deps.db);
    await sql`CREATE TRIGGER test_refuse_post_trg BEFORE INSERT ON posts
      FOR EACH ROW EXECUTE FUNCTION test_refuse_post()`.execute(t.deps.db);
    try {
      const before = await counts();
      const response = await send(
        url("deal"),
        { ...fields.deal, title: "Refused by the database" },
        {
          name: "ok.png",
          type: "image/png",
          bytes: await pngImage(),
        },
      );
      expect(response.statusCode).toBe(500);
      expect(response.json().message).not.toMatch(/refused by test/);
      expect(await counts()).toEqual(before);
    } finally {
      await sql`DROP TRIGGER test_refuse_post_trg ON posts`.execute(t.deps.db);
      await sql`DROP FUNCTION test_refuse_post()`.execute(t.deps.db);
    }
  });

  it("accepts the same image once the database is well again", async () => {
    const before = await counts();
    const response = await send(
      url("deal"),
      { ...fields.deal, title: "Accepted" },
      {
        name: "ok.png",
        type: "image/png",
        bytes: await pngImage(),
      },
    );
    expect(response.statusCode).toBe(200);
    const after = await counts();
    expect(after.posts).toBe(before.posts + 1);
    expect(after.media).toBe(before.media + 1);
    // The image and its responsive variants (64 px wide: one width, AVIF and WebP).
    expect(after.files.length).toBe(before.files.length + 3);
  });
});
