import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { registerSecurityHeaders } from "./security-headers.ts";

async function imageSources(mediaBaseUrl?: string): Promise<string> {
  const app = Fastify();
  await registerSecurityHeaders(app, { dev: false, mediaBaseUrl });
  app.get("/", (_request, reply) => reply.type("text/html").send("<p>hi</p>"));
  const response = await app.inject({ method: "GET", url: "/" });
  await app.close();
  return /img-src [^;]*/.exec(String(response.headers["content-security-policy"]))![0];
}

describe("Content-Security-Policy img-src", () => {
  it("is unchanged without MEDIA_BASE_URL", async () => {
    expect(await imageSources()).toBe("img-src 'self' data: blob: https:");
  });

  it("names MEDIA_BASE_URL's origin, without its path", async () => {
    expect(await imageSources("http://cdn.internal:8080/media")).toBe(
      "img-src 'self' data: blob: https: http://cdn.internal:8080",
    );
    expect(await imageSources("https://media.example.com")).toBe(
      "img-src 'self' data: blob: https: https://media.example.com",
    );
  });
});
