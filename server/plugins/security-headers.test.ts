import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { PERMISSIONS_POLICY, securityHeadersPlugin } from "./security-headers.ts";

async function headersOf(options: { https?: boolean; mediaBaseUrl?: string; url?: string } = {}) {
  const app = Fastify();
  await app.register(securityHeadersPlugin, {
    dev: false,
    https: options.https ?? false,
    mediaBaseUrl: options.mediaBaseUrl,
  });
  app.get("/", (_request, reply) => reply.type("text/html").send("<p>hi</p>"));
  app.get("/assets/app.js", (_request, reply) =>
    reply.type("application/javascript").send("void 0"),
  );
  const response = await app.inject({ method: "GET", url: options.url ?? "/" });
  await app.close();
  return response.headers;
}

async function imageSources(mediaBaseUrl?: string): Promise<string> {
  const headers = await headersOf({ mediaBaseUrl });
  return /img-src [^;]*/.exec(String(headers["content-security-policy"]))![0];
}

describe("Content-Security-Policy img-src", () => {
  it("admits the site's own images and Stripe's, no other https origin", async () => {
    expect(await imageSources()).toBe("img-src 'self' data: blob: https://*.stripe.com");
  });

  it("names MEDIA_BASE_URL's origin, without its path", async () => {
    expect(await imageSources("http://cdn.internal:8080/media")).toBe(
      "img-src 'self' data: blob: https://*.stripe.com http://cdn.internal:8080",
    );
    expect(await imageSources("https://media.example.com")).toBe(
      "img-src 'self' data: blob: https://*.stripe.com https://media.example.com",
    );
  });
});

describe("transport and feature headers", () => {
  it("sends Strict-Transport-Security only when the site is served over HTTPS", async () => {
    expect((await headersOf({ https: false }))["strict-transport-security"]).toBeUndefined();
    expect((await headersOf({ https: true }))["strict-transport-security"]).toMatch(/^max-age=\d+/);
  });

  it("turns off the browser features the site does not use, on documents", async () => {
    const policy = String((await headersOf())["permissions-policy"]);
    expect(policy).toBe(PERMISSIONS_POLICY);
    for (const feature of ["camera=()", "microphone=()", "geolocation=()", "usb=()"]) {
      expect(policy).toContain(feature);
    }
    expect(policy).toContain('payment=(self "https://js.stripe.com")');
    // A build script is no document: it goes without.
    expect((await headersOf({ url: "/assets/app.js" }))["permissions-policy"]).toBeUndefined();
  });
});
