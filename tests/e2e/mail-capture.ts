import fs from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/** Mailboxes of this domain are refused for good (550), as a server with no such user does. */
export const REFUSED_DOMAIN = "refused.example";

/**
 * A real SMTP server on loopback for the browser tests: every message it accepts is written whole
 * to `dir` as <time>-<recipient>.eml, where test workers (other processes) read them. Recipients
 * at REFUSED_DOMAIN are refused at RCPT TO (the undeliverable-mail banner's journey).
 */
export async function startMailCapture(
  dir: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  fs.mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onRcptTo(address, _session, callback) {
      if (!address.address.toLowerCase().endsWith(`@${REFUSED_DOMAIN}`)) return callback();
      callback(Object.assign(new Error("5.1.1 No such user here"), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        const file = `${Date.now()}-${String(++count).padStart(4, "0")}-${to.replace(/[^a-z0-9@.,_-]/gi, "_")}.eml`;
        fs.writeFileSync(path.join(dir, file), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
