import http from "node:http";
import https from "node:https";

export interface JavaScriptWeight {
  page: string;
  files: number;
  /** Bytes of the files themselves. */
  raw: number;
  /** Bytes sent to a browser that accepts brotli (every current one): the headline figure. */
  brotli: number;
  /** Bytes sent to one that accepts only gzip. */
  gzip: number;
}

/** One file as the server sends it for an Accept-Encoding: its bytes on the wire, still encoded. */
export interface SentFile {
  body: Buffer;
  /** The answer's Content-Encoding; none (or identity) for the plain file. */
  encoding: string | undefined;
}

export type GetFile = (
  url: string,
  acceptEncoding: "br" | "gzip" | "identity",
) => Promise<SentFile>;

/** The script URLs a page loads at start: module scripts, module preloads and inline imports (or lists). */
export function scriptUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) {
    urls.add(match[1]!);
  }
  for (const match of html.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(match[1]!);
  // React Router's module script imports the route modules by URL.
  for (const match of html.matchAll(
    /import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/assets\/[^"]+\.js)"/g,
  )) {
    urls.add(match[1]!);
  }
  // The script that starts it after the first paint lists the module preloads it adds
  // (app/lib/scripts-after-paint.server.ts).
  for (const match of html.matchAll(/previousElementSibling,(\["[^\]]*\])\)/g)) {
    for (const url of JSON.parse(match[1]!) as string[]) urls.add(url);
  }
  return [...urls].filter((url) => url.endsWith(".js"));
}

/**
 * The JavaScript a page's HTML makes the browser download before it is interactive, counted as the
 * server sends it (docs/decisions/0054): each file asked for with `Accept-Encoding: br`, then
 * `gzip`, then neither, and the bytes that travel summed over files. `get` reads one file (over
 * HTTP here; the budget test asks the app itself).
 */
export async function javascriptWeightOf(
  page: string,
  html: string,
  get: GetFile,
): Promise<JavaScriptWeight> {
  const weight: JavaScriptWeight = { page, files: 0, raw: 0, brotli: 0, gzip: 0 };
  for (const url of scriptUrls(html)) {
    const plain = await get(url, "identity");
    if (plain.encoding && plain.encoding !== "identity") {
      throw new Error(`${url} came ${plain.encoding}-encoded to a request that accepts none`);
    }
    weight.files += 1;
    weight.raw += plain.body.length;
    for (const encoding of ["br", "gzip"] as const) {
      const sent = await get(url, encoding);
      // A file the server sends as it is (too small to gain) travels as its plain bytes.
      if (sent.encoding && sent.encoding !== "identity" && sent.encoding !== encoding) {
        throw new Error(`${url} came ${sent.encoding}-encoded to a request for ${encoding}`);
      }
      weight[encoding === "br" ? "brotli" : "gzip"] += sent.body.length;
    }
  }
  return weight;
}

/** GETs `url` with an Accept-Encoding and keeps the body as it came (fetch would decode it). */
export function getAsSent(url: string, acceptEncoding: string): Promise<SentFile> {
  const client = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        else resolve({ body: Buffer.concat(chunks), encoding: res.headers["content-encoding"] });
      });
      res.on("error", reject);
    });
    request.on("error", reject);
  });
}

/** javascriptWeightOf a page of the server at `base`. */
export async function javascriptWeight(base: string, page: string): Promise<JavaScriptWeight> {
  const html = await (await fetch(base + page)).text();
  return javascriptWeightOf(page, html, (url, encoding) =>
    getAsSent(new URL(url, base + page).href, encoding),
  );
}

/** A deal page's path: the newest deal of the home lists. */
export async function someDealPath(base: string): Promise<string | null> {
  const response = await fetch(`${base}/api/home`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  const home = (await response.json()) as {
    recent_deals?: { recent_arr?: { unique_id: string; slug: string }[] };
  };
  const deal = home.recent_deals?.recent_arr?.[0];
  return deal ? `/post/${deal.unique_id}/${deal.slug}` : null;
}
