import { generateKeyPairSync } from "node:crypto";
import { dkimVerify } from "mailauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config/env.ts";
import { mailerFor, type MailMessage } from "../../core/mail/mailer.ts";
import { withUnsubscribe } from "../../core/mail/queue.ts";
import { startSmtpCapture, type SmtpCapture } from "../helpers/smtp.ts";

/*
 * DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY make nodemailer sign every mail. The mail the
 * test SMTP server receives is checked by mailauth's verifier, whose DNS look-ups go to a local
 * resolver that knows only the selector's TXT record: nothing reaches the internet.
 */

const DOMAIN = "chalkboard.example";
const SELECTOR = "mail2026";
const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });

/** The DKIM key record (RFC 6376 section 3.6.1) a site would publish at the selector. */
const KEY_RECORD = `v=DKIM1; k=rsa; p=${publicKey
  .export({ type: "spki", format: "der" })
  .toString("base64")}`;

/** DNS as mailauth asks it: the selector's TXT record, and nothing else. */
async function resolver(name: string, type: string): Promise<string[][]> {
  if (type === "TXT" && name === `${SELECTOR}._domainkey.${DOMAIN}`) return [[KEY_RECORD]];
  throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
}

/** mailauth's verdict on each signature, following RFC 6376 exactly (`strict`). */
async function verify(raw: string) {
  const { results } = await dkimVerify(Buffer.from(raw), { resolver, strict: true });
  return results;
}

let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(async () => {
  await smtp?.close();
});

function signingMailer() {
  const config = loadConfig({
    NODE_ENV: "test",
    PUBLIC_URL: `https://${DOMAIN}`,
    SMTP_URL: smtp.url,
    DKIM_DOMAIN: DOMAIN,
    DKIM_SELECTOR: SELECTOR,
    DKIM_PRIVATE_KEY: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  });
  return mailerFor(config, () => {});
}

/** A bulk mail as sendToMember queues it: with its one-click unsubscribe headers. */
function alertMail(to: string): MailMessage {
  return withUnsubscribe(
    {
      to,
      subject: "New deals for “crayons”",
      text: "Three new deals match your alert.",
      html: "<html><body><p>Three new deals match your alert.</p></body></html>",
    },
    {
      unsubscribe: `https://${DOMAIN}/unsubscribe?token=abc`,
      settings: `https://${DOMAIN}/user/settings/email`,
      kindLabel: "Keyword alerts",
    },
  );
}

describe("DKIM-signed mail", () => {
  it("carries a signature that verifies against the published key, unsubscribe headers signed", async () => {
    await signingMailer().send(alertMail("signed@example.org"));
    const mail = await smtp.waitForMessage("signed@example.org");

    const [result, ...others] = await verify(mail.raw);
    expect(others).toEqual([]);
    expect(result!.status.result).toBe("pass");
    expect(result!.signingDomain).toBe(DOMAIN);
    expect(result!.selector).toBe(SELECTOR);
    const signed = result!.signingHeaders!.keys.toLowerCase().split(": ");
    expect(signed).toEqual(
      expect.arrayContaining(["from", "subject", "list-unsubscribe", "list-unsubscribe-post"]),
    );
    expect(mail.raw).toMatch(/^List-Unsubscribe: <https:\/\/chalkboard\.example\/unsubscribe/m);
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
  });

  it("fails when the body or a signed header is changed on the way", async () => {
    await signingMailer().send(alertMail("tampered@example.org"));
    const { raw } = await smtp.waitForMessage("tampered@example.org");
    expect((await verify(raw))[0]!.status.result).toBe("pass");

    const body = raw.replace("Three new deals", "Three old deals");
    expect(body).not.toBe(raw);
    expect((await verify(body))[0]!.status.result).toBe("fail");

    const header = raw.replace("List-Unsubscribe=One-Click", "List-Unsubscribe=Two-Clicks");
    expect(header).not.toBe(raw);
    expect((await verify(header))[0]!.status.result).toBe("fail");
  });

  it("is not signed without DKIM_*", async () => {
    const config = loadConfig({ NODE_ENV: "test", SMTP_URL: smtp.url });
    await mailerFor(config, () => {}).send(alertMail("unsigned@example.org"));
    const { raw } = await smtp.waitForMessage("unsigned@example.org");
    expect(raw).not.toMatch(/^DKIM-Signature:/im);
    expect(await verify(raw)).toEqual([
      expect.objectContaining({ status: expect.objectContaining({ result: "none" }) }),
    ]);
  });
});
