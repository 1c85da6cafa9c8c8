import zlib from "node:zlib";

export interface JavaScriptWeight {
  page: string;
  files: number;
  raw: number;
  gzip: number;
  brotli: number;
}

/** The script URLs a page loads at start: module scripts, module preloads and inline imports. */
export function scriptUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) {
    urls.add(match[1]!);
  }
  for (const match of html.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(match[1]!);
  // React Router's entry script imports the route modules by URL.
  for (const match of html.matchAll(
    /import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/assets\/[^"]+\.js)"/g,
  )) {
    urls.add(match[1]!);
  }
  return [...urls].filter((url) => url.endsWith(".js"));
}

/**
 * The JavaScript a page's HTML makes the browser download before it is interactive, compressed as
 * the server would send it (gzip and brotli at their default levels), summed over files. `get`
 * reads one script by its URL (over HTTP here; the budget test reads it from the app itself).
 */
export async function javascriptWeightOf(
  page: string,
  html: string,
  get: (url: string) => Promise<Buffer>,
): Promise<JavaScriptWeight> {
  const weight: JavaScriptWeight = { page, files: 0, raw: 0, gzip: 0, brotli: 0 };
  for (const url of scriptUrls(html)) {
    const body = await get(url);
    weight.files += 1;
    weight.raw += body.length;
    weight.gzip += zlib.gzipSync(body).length;
    weight.brotli += zlib.brotliCompressSync(body).length;
  }
  return weight;
}

/** javascriptWeightOf a page of the server at `base`. */
export async function javascriptWeight(base: string, page: string): Promise<JavaScriptWeight> {
  const html = await (await fetch(base + page)).text();
  return javascriptWeightOf(page, html, async (url) =>
    Buffer.from(await (await fetch(new URL(url, base + page))).arrayBuffer()),
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
