import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { startLocalHttps, type LocalHttps } from "./local-https.ts";

/*
 * The product-page corpus (tests/fixtures/product-pages/, modelled on what shops publish) served
 * over HTTPS on 127.0.0.1 (tests/helpers/local-https.ts), reached by the app through the tests'
 * loopback switch (LINK_CHECK_ALLOW_LOOPBACK). A page's {{origin}} and {{host}} become the
 * server's own, so its absolute and protocol-relative picture links lead back here. Besides the
 * files, a few answers a page can give that no file can:
 *   /images/<name>.png       a small PNG (any name; "not-really.png" answers HTML instead)
 *   /images/photo.jpg        a 1600 × 1200 JPEG, a shop's full-size product photo
 *   /full-size-photo         a product page whose picture is that photo
 *   /huge                    an HTML page of 4 MB
 *   /not-html                a PDF
 *   /missing                 404
 *   /slow                    headers, then nothing more until the client gives up
 *   /moved                   a 301 to /shopify.html
 */

export const PRODUCT_PAGES_DIR = path.resolve(import.meta.dirname, "../fixtures/product-pages");

export interface ProductPages {
  /** https://images.chalkboard.test:<port>: a page's address is `${origin}/<file>`. */
  origin: string;
  /** Paths the server was asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startProductPages(): Promise<ProductPages> {
  const png = await sharp({
    create: { width: 48, height: 36, channels: 3, background: { r: 230, g: 120, b: 40 } },
  })
    .png()
    .toBuffer();
  // Smooth gradients with some texture, so the encoders work as on a photo, not a flat fill.
  const photo = await sharp({
    create: { width: 1600, height: 1200, channels: 3, background: { r: 90, g: 140, b: 200 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200"><defs><linearGradient id="g"><stop offset="0" stop-color="#f4a261"/><stop offset="1" stop-color="#2a9d8f"/></linearGradient></defs><rect width="1600" height="1200" fill="url(#g)"/>${Array.from({ length: 60 }, (_, i) => `<circle cx="${(i * 173) % 1600}" cy="${(i * 97) % 1200}" r="${40 + (i % 7) * 15}" fill="#264653" opacity="0.35"/>`).join("")}</svg>`,
        ),
      },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
  const requests: string[] = [];
  let server: LocalHttps | null = null;
  const slow = new Set<http.ServerResponse>();

  const handler = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const url = new URL(request.url ?? "/", "https://pages.test");
    requests.push(url.pathname);
    const origin = server!.named;
    if (url.pathname === "/images/photo.jpg") {
      response.writeHead(200, { "content-type": "image/jpeg" });
      return response.end(photo);
    }
    if (url.pathname.startsWith("/images/") || url.pathname.startsWith("/media/catalog/")) {
      if (url.pathname.endsWith("/not-really.png")) {
        response.writeHead(200, { "content-type": "text/html" });
        return response.end("<p>a page, not a picture</p>");
      }
      response.writeHead(200, { "content-type": "image/png" });
      return response.end(png);
    }
    switch (url.pathname) {
      case "/huge": {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        const filler = `<p>${"lorem ipsum ".repeat(80)}</p>\n`;
        response.write("<!doctype html><html><head><title>Huge</title></head><body>");
        for (let i = 0; i < (4 * 1024 * 1024) / filler.length; i++) response.write(filler);
        return response.end("</body></html>");
      }
      case "/not-html":
        response.writeHead(200, { "content-type": "application/pdf" });
        return response.end("%PDF-1.7\n%âãÏÓ\n1 0 obj << /Type /Catalog >> endobj\n");
      case "/missing":
        response.writeHead(404, { "content-type": "text/html" });
        return response.end("<h1>Not found</h1>");
      case "/slow":
        response.writeHead(200, { "content-type": "text/html" });
        response.write("<!doctype html><html><head>");
        slow.add(response);
        return;
      case "/full-size-photo":
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return response.end(
          `<!doctype html><html><head><title>Reading Nook Beanbag | Cosy Class</title>` +
            `<meta property="og:image" content="${origin}/images/photo.jpg">` +
            `<meta property="product:price:amount" content="89.99">` +
            `<meta property="product:price:currency" content="USD"></head><body></body></html>`,
        );
      case "/moved":
        response.writeHead(301, { location: "/shopify.html" });
        return response.end();
    }
    const file = path.resolve(PRODUCT_PAGES_DIR, `.${decodeURIComponent(url.pathname)}`);
    if (!file.startsWith(`${PRODUCT_PAGES_DIR}/`) || !fs.existsSync(file)) {
      response.writeHead(404, { "content-type": "text/plain" });
      return response.end("no such page");
    }
    const host = new URL(origin).host;
    // The bytes as stored (a page in windows-1252 stays so); only the placeholders change.
    const body = fs
      .readFileSync(file, "latin1")
      .replaceAll("{{origin}}", origin)
      .replaceAll("{{host}}", host);
    response.writeHead(200, { "content-type": "text/html" });
    response.end(Buffer.from(body, "latin1"));
  };

  server = await startLocalHttps(handler);
  return {
    origin: server.named,
    requests,
    async close() {
      for (const response of slow) response.destroy();
      await server.close();
    },
  };
}
