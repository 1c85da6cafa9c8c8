import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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

  it("admits PUSH_ALLOW_LOOPBACK for tests, never with NODE_ENV=production", () => {
    expect(loadConfig({}).pushAllowLoopback).toBe(false);
    expect(loadConfig({ PUSH_ALLOW_LOOPBACK: "on", NODE_ENV: "test" }).pushAllowLoopback).toBe(
      true,
    );
    expect(() => loadConfig({ PUSH_ALLOW_LOOPBACK: "on", NODE_ENV: "production" })).toThrow(
      /PUSH_ALLOW_LOOPBACK: it is for tests and cannot be on when NODE_ENV=production/,
    );
    expect(() => loadConfig({ PUSH_ALLOW_LOOPBACK: "maybe" })).toThrow(/PUSH_ALLOW_LOOPBACK/);
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
    ["PAGE_CACHE", "sometimes"],
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

  it("warns of a REDIS_URL left set, whatever its value, instead of refusing it", () => {
    expect(loadConfig({}).warnings).toEqual([]);
    expect(loadConfig({ REDIS_URL: "" }).warnings).toEqual([]);
    for (const value of ["redis://127.0.0.1:6379", "not a url"]) {
      const { warnings } = loadConfig({ REDIS_URL: value });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^REDIS_URL is set but no longer used: .*PostgreSQL/);
    }
  });

  it("keeps pages in the server unless PAGE_CACHE=off", () => {
    expect(loadConfig({}).pageCache).toBe(true);
    expect(loadConfig({ PAGE_CACHE: "off" }).pageCache).toBe(false);
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

  describe("server processes (WEB_CONCURRENCY)", () => {
    const pg = "postgres://postgres@127.0.0.1:5432/site";

    it("runs one process per core on PostgreSQL and one on the embedded database by default", () => {
      expect(loadConfig({ DATABASE_URL: pg }).webConcurrency).toBe(os.availableParallelism());
      expect(loadConfig({}).webConcurrency).toBe(1);
    });

    it("takes a number of processes, 1 on the embedded database too", () => {
      expect(loadConfig({ DATABASE_URL: pg, WEB_CONCURRENCY: "3" }).webConcurrency).toBe(3);
      expect(loadConfig({ WEB_CONCURRENCY: "1" }).webConcurrency).toBe(1);
    });

    it.each(["0", "-2", "two", "1.5", "2000"])("refuses WEB_CONCURRENCY=%s, naming it", (value) => {
      expect(() => loadConfig({ DATABASE_URL: pg, WEB_CONCURRENCY: value })).toThrow(
        new RegExp(`^Invalid environment variable WEB_CONCURRENCY="${value}": must be`),
      );
    });

    it("refuses more than one process on the embedded database, saying why", () => {
      expect(() => loadConfig({ WEB_CONCURRENCY: "2" })).toThrow(ConfigError);
      expect(() => loadConfig({ WEB_CONCURRENCY: "2" })).toThrow(
        'Invalid environment variable WEB_CONCURRENCY="2": the embedded database (no DATABASE_URL) can be opened by one server process only; set DATABASE_URL to run several, or leave WEB_CONCURRENCY unset',
      );
    });
  });

  describe("the pool size (DATABASE_POOL_SIZE)", () => {
    const pg = "postgres://postgres@127.0.0.1:5432/site";

    it("by default fits 2 machines of WEB_CONCURRENCY processes and a worker in 100 connections", () => {
      // 2 × 2 × (10 + 2) + (10 + 1) = 59: the ceiling of 10 holds.
      expect(loadConfig({ DATABASE_URL: pg, WEB_CONCURRENCY: "2" }).databasePoolSize).toBe(10);
      // 2 × 4 × (8 + 2) + (8 + 1) = 89 ≤ 95, and 9 would make 99.
      expect(loadConfig({ DATABASE_URL: pg, WEB_CONCURRENCY: "4" }).databasePoolSize).toBe(8);
      expect(loadConfig({ DATABASE_URL: pg, WEB_CONCURRENCY: "8" }).databasePoolSize).toBe(3);
    });

    it("takes a number of connections", () => {
      expect(loadConfig({ DATABASE_URL: pg, DATABASE_POOL_SIZE: "25" }).databasePoolSize).toBe(25);
      expect(loadConfig({ DATABASE_URL: pg, DATABASE_POOL_SIZE: "1" }).databasePoolSize).toBe(1);
    });

    it.each([
      ["0", "must be a number of connections from 1 to 1000"],
      ["-3", "must be a whole number of connections, 1 or more"],
      ["ten", "must be a whole number of connections, 1 or more"],
      ["2.5", "must be a whole number of connections, 1 or more"],
      ["5000", "must be a number of connections from 1 to 1000"],
    ])("refuses DATABASE_POOL_SIZE=%s, naming it", (value, message) => {
      expect(() => loadConfig({ DATABASE_URL: pg, DATABASE_POOL_SIZE: value })).toThrow(
        `Invalid environment variable DATABASE_POOL_SIZE="${value}": ${message}`,
      );
    });

    it("refuses it without DATABASE_URL, where it would do nothing", () => {
      expect(() => loadConfig({ DATABASE_POOL_SIZE: "5" })).toThrow(
        'Invalid environment variable DATABASE_POOL_SIZE="5": it only applies with DATABASE_URL, which is not set (the embedded database has one connection)',
      );
    });
  });

  describe("the drain after SIGTERM (SHUTDOWN_DRAIN_S)", () => {
    it("serves on for 5 s by default, or the seconds given", () => {
      expect(loadConfig({}).shutdownDrainSeconds).toBe(5);
      expect(loadConfig({ SHUTDOWN_DRAIN_S: "0" }).shutdownDrainSeconds).toBe(0);
      expect(loadConfig({ SHUTDOWN_DRAIN_S: "2.5" }).shutdownDrainSeconds).toBe(2.5);
      expect(loadConfig({ SHUTDOWN_DRAIN_S: "300" }).shutdownDrainSeconds).toBe(300);
    });

    it.each(["-1", "five", "5s", "1e3"])("refuses SHUTDOWN_DRAIN_S=%s, naming it", (value) => {
      expect(() => loadConfig({ SHUTDOWN_DRAIN_S: value })).toThrow(
        `Invalid environment variable SHUTDOWN_DRAIN_S=${JSON.stringify(value)}: must be a number of seconds (0 or more, such as 5 or 2.5)`,
      );
    });

    it("refuses a drain longer than 300 s", () => {
      expect(() => loadConfig({ SHUTDOWN_DRAIN_S: "301" })).toThrow(
        'Invalid environment variable SHUTDOWN_DRAIN_S="301": must be at most 300 seconds',
      );
    });
  });

  describe("metrics (METRICS_TOKEN, METRICS_PORT)", () => {
    const token = "a".repeat(16) + "0123456789abcdef";

    it("leaves both unset by default: loopback only, no worker metrics server", () => {
      const config = loadConfig({});
      expect(config.metricsToken).toBeUndefined();
      expect(config.metricsPort).toBeUndefined();
    });

    it("takes a token of 32 characters or more and a port", () => {
      const config = loadConfig({ METRICS_TOKEN: token, METRICS_PORT: "9464" });
      expect(config.metricsToken).toBe(token);
      expect(config.metricsPort).toBe(9464);
    });

    it.each([
      ["short", "at least 32 characters"],
      [`${token.slice(0, 20)} ${token.slice(20)}`, "without spaces"],
    ])("refuses a weak METRICS_TOKEN without repeating it", (value, reason) => {
      let message = "";
      try {
        loadConfig({ METRICS_TOKEN: value });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toMatch(/^Invalid environment variable METRICS_TOKEN: must be/);
      expect(message).toContain(reason);
      expect(message).not.toContain(value);
    });

    it.each(["0", "70000", "metrics"])("refuses METRICS_PORT=%s, naming it", (value) => {
      expect(() => loadConfig({ METRICS_PORT: value })).toThrow(
        new RegExp(`^Invalid environment variable METRICS_PORT="${value}":`),
      );
    });
  });

  describe("media storage (S3_*, MEDIA_BASE_URL)", () => {
    const s3 = {
      S3_BUCKET: "chalkboard-media",
      S3_REGION: "eu-central-1",
      S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      S3_SECRET_ACCESS_KEY: "secret",
    };

    it("keeps media in DATA_DIR/media by default, linked at /media/", () => {
      const config = loadConfig({});
      expect(config.s3).toBeUndefined();
      expect(config.mediaBaseUrl).toBeUndefined();
      expect("s3" in config || "mediaBaseUrl" in config).toBe(false);
    });

    it("reads the bucket, its region, keys and an optional S3-compatible endpoint", () => {
      expect(loadConfig(s3).s3).toEqual({
        bucket: "chalkboard-media",
        region: "eu-central-1",
        endpoint: undefined,
        accessKeyId: "AKIAEXAMPLE",
        secretAccessKey: "secret",
      });
      expect(loadConfig({ ...s3, S3_ENDPOINT: "http://127.0.0.1:9000/" }).s3?.endpoint).toBe(
        "http://127.0.0.1:9000",
      );
    });

    it.each(["S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const)(
      "refuses S3_BUCKET without %s",
      (name) => {
        expect(() => loadConfig({ ...s3, [name]: undefined })).toThrow(
          `Invalid environment variable ${name}: S3_BUCKET is set, so S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY must be set too`,
        );
        // An empty value counts as unset.
        expect(() => loadConfig({ ...s3, [name]: "" })).toThrow(ConfigError);
      },
    );

    it.each(["S3_REGION", "S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const)(
      "refuses %s without S3_BUCKET rather than ignore it",
      (name) => {
        const value = name === "S3_ENDPOINT" ? "http://127.0.0.1:9000" : "eu-west-1";
        expect(() => loadConfig({ [name]: value })).toThrow(
          `Invalid environment variable ${name}: it only applies with S3_BUCKET, which is not set (media are kept in DATA_DIR/media)`,
        );
      },
    );

    it.each([
      ["S3_BUCKET", "Chalkboard_Media"],
      ["S3_BUCKET", "ab"],
      ["S3_REGION", "EU West"],
      ["S3_ENDPOINT", "minio:9000"],
      ["S3_ENDPOINT", "ftp://minio.internal"],
      ["MEDIA_BASE_URL", "cdn.example.com"],
      ["MEDIA_BASE_URL", "javascript:alert(1)"],
      ["MEDIA_BASE_URL", "https://cdn.example.com/media?v=1"],
      ["MEDIA_BASE_URL", "https://user:pass@cdn.example.com"],
    ])("refuses %s=%s with a line naming it", (name, value) => {
      expect(() => loadConfig({ ...s3, [name]: value })).toThrow(
        new RegExp(`^Invalid environment variable ${name}=`),
      );
    });

    it("reads MEDIA_BASE_URL without its trailing slash, with or without a bucket", () => {
      expect(loadConfig({ MEDIA_BASE_URL: "https://cdn.example.com/media/" }).mediaBaseUrl).toBe(
        "https://cdn.example.com/media",
      );
      expect(loadConfig({ ...s3, MEDIA_BASE_URL: "http://cdn.internal:8080" }).mediaBaseUrl).toBe(
        "http://cdn.internal:8080",
      );
    });
  });
  describe("DKIM signing (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY)", () => {
    const rsa = (modulusLength: number) =>
      generateKeyPairSync("rsa", { modulusLength }).privateKey.export({
        type: "pkcs1",
        format: "pem",
      }) as string;
    const pem = rsa(2048);
    const dkim = {
      DKIM_DOMAIN: "Chalkboard.Example",
      DKIM_SELECTOR: "mail2026",
      DKIM_PRIVATE_KEY: pem,
    };

    it("signs nothing when none is set", () => {
      expect(loadConfig({}).dkim).toBeUndefined();
    });

    it("reads the domain (in lower case), the selector and the key as PKCS#8 PEM", () => {
      const config = loadConfig(dkim).dkim!;
      expect(config.domainName).toBe("chalkboard.example");
      expect(config.keySelector).toBe("mail2026");
      expect(config.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    });

    it("reads the key from a file it names, or with its line breaks written as \\n", () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-dkim-"));
      try {
        const file = path.join(dir, "dkim.pem");
        fs.writeFileSync(file, pem);
        const fromFile = loadConfig({ ...dkim, DKIM_PRIVATE_KEY: file }).dkim!;
        const oneLine = loadConfig({ ...dkim, DKIM_PRIVATE_KEY: pem.replace(/\n/g, "\\n") }).dkim!;
        expect(fromFile.privateKey).toBe(loadConfig(dkim).dkim!.privateKey);
        expect(oneLine.privateKey).toBe(fromFile.privateKey);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it.each(["DKIM_DOMAIN", "DKIM_SELECTOR", "DKIM_PRIVATE_KEY"] as const)(
      "refuses the others without %s",
      (name) => {
        expect(() => loadConfig({ ...dkim, [name]: undefined })).toThrow(
          new RegExp(
            `^Invalid environment variable ${name}: .* must all be set \\(or none, for unsigned mail\\)$`,
          ),
        );
      },
    );

    it.each([
      ["DKIM_DOMAIN", "localhost"],
      ["DKIM_DOMAIN", "chalkboard..example"],
      ["DKIM_DOMAIN", "https://chalkboard.example"],
      ["DKIM_SELECTOR", "mail_2026"],
      ["DKIM_SELECTOR", "-mail"],
    ])("refuses %s=%s with a line naming it", (name, value) => {
      expect(() => loadConfig({ ...dkim, [name]: value })).toThrow(
        new RegExp(`^Invalid environment variable ${name}=`),
      );
    });

    it.each([
      ["a missing file", "/nonexistent/dkim.pem", /neither a PEM key nor a readable file .*ENOENT/],
      [
        "text that is no key",
        "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----",
        /cannot be read as an unencrypted private key/,
      ],
      [
        "an Ed25519 key",
        generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }),
        /must be an RSA key of 1024 bits or more .*this one is ed25519/,
      ],
      ["a 512-bit RSA key", rsa(512), /this one is 512-bit RSA/],
    ])("refuses %s as DKIM_PRIVATE_KEY without repeating it", (_case, value, message) => {
      let error: unknown;
      try {
        loadConfig({ ...dkim, DKIM_PRIVATE_KEY: value as string });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const text = (error as Error).message;
      expect(text).toMatch(/^Invalid environment variable DKIM_PRIVATE_KEY: /);
      expect(text).toMatch(message);
      // No line of a key's body (a path may be named): an error line goes to logs.
      for (const line of String(value).split("\n").slice(1, -1)) expect(text).not.toContain(line);
    });
  });
});
