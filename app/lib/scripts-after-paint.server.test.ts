import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { HELD_INPUT_SCRIPT } from "./held-input.ts";
import { scriptsAfterFirstPaint } from "./scripts-after-paint.server.ts";

const NONCE = "n0nce==";
const HEAD =
  '<!DOCTYPE html><html><head><link rel="preload" href="/a.css" as="style"/>' +
  `<link rel="modulepreload" href="/assets/entry.js" nonce="${NONCE}"/>` +
  `<link rel="modulepreload" href="/assets/framework.js" nonce="${NONCE}"/>` +
  '<link rel="stylesheet" href="/a.css"/></head>';
const MODULE_CODE = 'import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");';
const BODY =
  "<body><p>Café – “quoted” type=&quot;module&quot;</p>" +
  `<script nonce="${NONCE}">window.__reactRouterContext = {};</script>` +
  `<script nonce="${NONCE}" type="module" async="">${MODULE_CODE}</script>` +
  `<script nonce="${NONCE}">window.__reactRouterContext.streamController.enqueue("[]");</script>` +
  "</body></html>";

async function streamed(chunks: Buffer[]) {
  let done = 0;
  const out = await text(Readable.from(chunks).pipe(scriptsAfterFirstPaint(NONCE, () => done++)));
  return { out, done };
}

describe("scripts after the first paint", () => {
  it("takes the head's module preloads out, makes the module script inert and starts both after the paint", async () => {
    const { out, done } = await streamed([Buffer.from(HEAD + BODY, "utf8")]);
    expect(done).toBe(1);
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).toContain('<link rel="preload" href="/a.css" as="style"/>');
    // The script that holds taps and submits until hydration ends the head, with the nonce.
    expect(out).toContain(
      `<link rel="stylesheet" href="/a.css"/><script nonce="${NONCE}">${HELD_INPUT_SCRIPT}</script></head>`,
    );
    expect(out).not.toContain('type="module"');
    expect(out).toContain(
      `<script nonce="${NONCE}" type="text/x-after-paint">${MODULE_CODE}</script><script nonce="${NONCE}">`,
    );
    const starter =
      /<script nonce="[^"]+" type="text\/x-after-paint">[^<]*<\/script><script nonce="[^"]+">([^<]*)<\/script>/.exec(
        out,
      )![1]!;
    expect(starter).toContain('["/assets/entry.js","/assets/framework.js"]');
    expect(starter).toContain("requestAnimationFrame");
    // The rest of the page is as React wrote it.
    expect(out).toContain("<p>Café – “quoted” type=&quot;module&quot;</p>");
    expect(out.endsWith('enqueue("[]");</script></body></html>')).toBe(true);
  });

  it("writes the same page however the stream cuts it", async () => {
    const page = Buffer.from(HEAD + BODY, "utf8");
    const { out: whole } = await streamed([page]);
    // Every cut, including inside "</head>", the tags looked for, and multi-byte characters.
    for (let cut = 1; cut < page.length; cut += 5) {
      const { out, done } = await streamed([page.subarray(0, cut), page.subarray(cut)]);
      expect(out, `cut at ${cut}`).toBe(whole);
      expect(done).toBe(1);
    }
    const byteByByte = await streamed([...page].map((byte) => Buffer.from([byte])));
    expect(byteByByte.out).toBe(whole);
  });

  it("runs the starter in a page: preloads added, the module script live with its nonce, once painted", async () => {
    const { out } = await streamed([Buffer.from(HEAD + BODY, "utf8")]);
    const starter =
      /type="text\/x-after-paint">[^<]*<\/script><script nonce="[^"]+">([^<]*)<\/script>/.exec(
        out,
      )![1]!;
    const added: Record<string, string>[] = [];
    const inert = { nonce: NONCE, textContent: MODULE_CODE, replacedBy: null as unknown };
    let frame: (() => void) | undefined;
    const document = {
      visibilityState: "visible",
      currentScript: { previousElementSibling: inert },
      head: { appendChild: (link: Record<string, string>) => added.push(link) },
      createElement: () => ({}),
    };
    Object.assign(inert, { replaceWith: (script: unknown) => (inert.replacedBy = script) });
    new Function("document", "requestAnimationFrame", "setTimeout", starter)(
      document,
      (callback: () => void) => (frame = callback),
      (callback: () => void) => callback(),
    );
    expect(added).toEqual([]);
    expect(inert.replacedBy).toBeNull();
    frame!();
    expect(added).toEqual([
      { rel: "modulepreload", href: "/assets/entry.js", nonce: NONCE },
      { rel: "modulepreload", href: "/assets/framework.js", nonce: NONCE },
    ]);
    expect(inert.replacedBy).toEqual({ type: "module", nonce: NONCE, textContent: MODULE_CODE });
  });

  it("sends what React writes in one pass as one chunk when React flushes the pass", async () => {
    const stream = scriptsAfterFirstPaint(NONCE, () => {});
    const received: string[] = [];
    stream.on("data", (chunk: Buffer) => received.push(chunk.toString("utf8")));
    const page = Buffer.from(HEAD + BODY, "utf8");
    const shell = page.subarray(0, page.length - 30);
    for (let at = 0; at < shell.length; at += 64) stream.write(shell.subarray(at, at + 64));
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([]);
    // React calls its destination's flush() at the end of each pass it writes.
    stream.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toHaveLength(1);
    stream.write(page.subarray(shell.length, page.length - 10));
    stream.flush();
    stream.end(page.subarray(page.length - 10));
    await new Promise((resolve) => stream.on("end", resolve));
    expect(received).toHaveLength(3);
    expect(received.join("")).toBe((await streamed([page])).out);
  });

  it("passes a page without a head, or without module preloads, through whole", async () => {
    const fragment = await streamed([Buffer.from("<p>fragment</p>")]);
    expect(fragment.out).toBe("<p>fragment</p>");
    expect(fragment.done).toBe(1);
    const plain = "<html><head><title>t</title></head><body>" + BODY + "</body></html>";
    expect((await streamed([Buffer.from(plain)])).out).toBe(plain);
  });
});
