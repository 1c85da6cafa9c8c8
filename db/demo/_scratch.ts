import fs from "node:fs";
import { createDb } from "../index.ts";
import { seedDemoData } from "./seed.ts";
const scale = (process.argv[2] ?? "small") as "small" | "full";
const media = process.argv[3] ?? fs.mkdtempSync("/tmp/demo-media-");
let t = performance.now();
const handle = await createDb({ databaseUrl: "memory://" });
console.log("createDb ms", Math.round(performance.now() - t));
t = performance.now();
await seedDemoData(handle.db, { mediaDir: media, scale, now: new Date("2026-01-15T12:00:00Z") });
console.log("seed ms", Math.round(performance.now() - t), media);
for (const table of ["users", "stores", "categories", "posts", "comments", "likes", "follows", "teachers_wishlist", "featured_stores"] as const) {
  const r = await handle.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  console.log(table, r.n);
}
await handle.close();
