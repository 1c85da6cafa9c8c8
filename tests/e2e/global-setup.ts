import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startOidcProvider } from "../helpers/oidc.ts";
import { placeDemoImages } from "../setup/demo-images.ts";
import buildTestWorld from "../setup/test-world.ts";
import { startMailCapture } from "./mail-capture.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs} ms`);
}

/**
 * Starts what the browser tests talk to: an SMTP server that keeps every mail as a file (tests read
 * them through the `mailbox` fixture), an OpenID Connect provider for Google and Facebook sign-in,
 * and the production server itself (build/ must exist) on a fresh data folder with demo content.
 */
export default async function globalSetup() {
  if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
    throw new Error("No production build: run `npm run build` before the browser tests.");
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-e2e-"));
  const mailDir = path.join(work, "mail");
  const mail = await startMailCapture(mailDir);
  // Google and Facebook sign-in run the real code flow against one local OpenID Connect provider;
  // whoever signs in there is this person, with a verified address.
  const oidc = await startOidcProvider();
  oidc.setUser({
    sub: "e2e-social-user",
    email: "social.teacher@example.org",
    email_verified: true,
    name: "Social Teacher",
  });

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: baseUrl,
    DATA_DIR: path.join(work, "data"),
    RATE_LIMIT: "off",
    DEMO_DATA: "auto",
    LOG_LEVEL: "warn",
    SMTP_URL: mail.url,
    MAIL_FROM: "Chalkboard Deals <no-reply@chalkboard.test>",
    ...oidc.env(),
  };
  delete env.DATABASE_URL; // the browser tests run on the embedded database
  // The demo content's images, drawn once for every run (tests/setup/demo-images.ts): the server
  // seeds the content and finds its images already there.
  await placeDemoImages(path.join(env.DATA_DIR!, "media"), "full");

  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  // Meanwhile the world tests/helpers/app.ts builds apps from, for specs that need a server of
  // their own (csp.spec.ts), as Vitest's global setup makes it.
  const [world] = await Promise.all([
    buildTestWorld(),
    waitForServer(`${baseUrl}/api/general_settings`, child, 120_000),
  ]);

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  // The pages and layouts axe has passed (expectAccessible in fixtures.ts), one file each.
  const axeDir = path.join(work, "axe");
  fs.mkdirSync(axeDir);
  process.env.E2E_AXE_DIR = axeDir;

  return async () => {
    const made = fs.readdirSync(axeDir).filter((name) => name !== "skipped").length;
    const skipped = fs.existsSync(path.join(axeDir, "skipped"))
      ? fs.readFileSync(path.join(axeDir, "skipped"), "utf8").split("\n").length - 1
      : 0;
    console.log(`axe: ${made} pages and layouts scanned, ${skipped} scans of them again skipped`);
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    await oidc.close();
    await mail.close();
    await world?.();
    fs.rmSync(work, { recursive: true, force: true });
  };
}
