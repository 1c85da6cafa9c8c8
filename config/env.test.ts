import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./env.ts";

describe("loadConfig", () => {
  it("has working defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.dataDir.endsWith("/data")).toBe(true);
    expect(config.rateLimit).toBe(true);
    expect(config.demoData).toBe("auto");
    expect(config.oauth.google).toBeUndefined();
    expect(config.stripe).toBeUndefined();
  });

  it("derives PUBLIC_URL from PORT and treats empty values as unset", () => {
    const config = loadConfig({ PORT: "4321", SMTP_URL: "" });
    expect(config.publicUrl).toBe("http://localhost:4321");
    expect(config.smtpUrl).toBeUndefined();
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["PUBLIC_URL", "not a url"],
    ["DATABASE_URL", "mysql://x"],
    ["SMTP_URL", "http://mail"],
    ["DEMO_DATA", "sometimes"],
    ["RATE_LIMIT", "maybe"],
    ["LOG_LEVEL", "loud"],
  ])("refuses %s=%s with a line naming it", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(
      new RegExp(`^Invalid environment variable ${name}=`),
    );
  });

  it("needs both Stripe keys or neither", () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(/STRIPE_PUBLISHABLE_KEY/);
    expect(loadConfig({ STRIPE_SECRET_KEY: "sk", STRIPE_PUBLISHABLE_KEY: "pk" }).stripe).toEqual({
      secretKey: "sk",
      publishableKey: "pk",
    });
  });

  it("enables a social provider only with both keys, on its configured issuer", () => {
    expect(loadConfig({ GOOGLE_CLIENT_ID: "id" }).oauth.google).toBeUndefined();
    expect(
      loadConfig({
        GOOGLE_CLIENT_ID: "id",
        GOOGLE_CLIENT_SECRET: "s",
        GOOGLE_ISSUER: "http://127.0.0.1:9/",
      }).oauth.google,
    ).toEqual({ clientId: "id", clientSecret: "s", issuer: "http://127.0.0.1:9/" });
  });
});
