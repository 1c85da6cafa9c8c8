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
    expect(config.trustProxy).toBe(false);
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
    ["TRUST_PROXY", "true"],
    ["TRUST_PROXY", "10.0.0.1,proxy.example.com"],
    ["TRUST_PROXY", "10.0.0.0/33"],
    ["TRUST_PROXY", "::1/129"],
    ["TRUST_PROXY", "10.0.0.1/8/8"],
    ["TRUST_PROXY", "-1"],
    ["TRUST_PROXY", ","],
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

  it("trusts no proxy by default, whatever PUBLIC_URL says", () => {
    expect(loadConfig({ PUBLIC_URL: "https://deals.example.com" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(false);
  });

  it("reads TRUST_PROXY as a hop count or a list of addresses and ranges", () => {
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(
      loadConfig({ TRUST_PROXY: "10.0.0.7, 192.168.0.0/16,::1, fd00::/8,loopback" }).trustProxy,
    ).toEqual(["10.0.0.7", "192.168.0.0/16", "::1", "fd00::/8", "loopback"]);
  });

  it("names the entry of TRUST_PROXY it cannot read", () => {
    expect(() => loadConfig({ TRUST_PROXY: "10.0.0.1,proxy.example.com" })).toThrow(
      'Invalid environment variable TRUST_PROXY="10.0.0.1,proxy.example.com": "proxy.example.com" is not a hop count, an IP address or a CIDR range',
    );
  });
});
