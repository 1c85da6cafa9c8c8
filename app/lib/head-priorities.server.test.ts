import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { lowPriorityModulePreloads, markLowPriority } from "./head-priorities.server.ts";

const HEAD =
  '<!DOCTYPE html><html><head><link rel="preload" href="/a.css" as="style"/>' +
  '<link rel="modulepreload" href="/assets/entry.js" nonce="n"/>' +
  '<link rel="modulepreload" href="/assets/framework.js" nonce="n"/>' +
  '<link rel="stylesheet" href="/a.css"/></head>';
const BODY =
  '<body><p>Café – “quoted”</p><link rel="modulepreload" href="/in-body.js"/></body></html>';

async function streamed(chunks: Buffer[]) {
  let done = 0;
  const out = await text(Readable.from(chunks).pipe(lowPriorityModulePreloads(() => done++)));
  return { out, done };
}

describe("module preloads at low priority", () => {
  it("marks each module preload of the head, and nothing else", () => {
    const marked = markLowPriority(HEAD);
    expect(marked.match(/fetchpriority="low"/g)).toHaveLength(2);
    expect(marked).toContain(
      '<link rel="modulepreload" fetchpriority="low" href="/assets/entry.js"',
    );
    expect(marked).toContain('<link rel="preload" href="/a.css" as="style"/>');
    expect(markLowPriority(marked)).toBe(marked);
  });

  it("rewrites the head however the stream cuts it, leaves the body's bytes as they are, and says when it is done", async () => {
    const page = Buffer.from(HEAD + BODY, "utf8");
    const expected = markLowPriority(HEAD) + BODY;
    // Every cut, including inside "</head>", a tag, and the body's multi-byte characters.
    for (let cut = 1; cut < page.length; cut += 7) {
      const { out, done } = await streamed([page.subarray(0, cut), page.subarray(cut)]);
      expect(out, `cut at ${cut}`).toBe(expected);
      expect(done).toBe(1);
    }
    const byteByByte = await streamed([...page].map((byte) => Buffer.from([byte])));
    expect(byteByByte.out).toBe(expected);
  });

  it("passes a page without a head end through whole", async () => {
    const { out, done } = await streamed([Buffer.from("<p>fragment</p>")]);
    expect(out).toBe("<p>fragment</p>");
    expect(done).toBe(1);
  });
});
