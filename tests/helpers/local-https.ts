import dns from "node:dns/promises";
import https from "node:https";
import type { AddressInfo } from "node:net";
import type http from "node:http";
import tls from "node:tls";

/*
 * An HTTPS server on 127.0.0.1 for tests that make the server fetch https: addresses (images
 * copied into posts, core/media/outside-images.ts) without reaching the internet. Its key and
 * self-signed certificate (127.0.0.1, ::1, localhost and TEST_IMAGE_HOST; valid 2020 to 2120) are
 * for these tests only and secure nothing. The test process trusts the certificate beside the
 * system's authorities while the server runs (tls.setDefaultCACertificates), so the code under test
 * needs no switch.
 *
 * Fields that take only a domain name (a deal's image link) reach it as TEST_IMAGE_HOST (`named`):
 * a name under the reserved .test domain (RFC 2606) that this process resolves to 127.0.0.1 while
 * the server runs, by answering node:dns/promises' lookup for that one name; every other name is
 * looked up as before.
 */

export const TEST_IMAGE_HOST = "images.chalkboard.test";

const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4w9T5rFhE6BfS3eo
/msJbwuW6GHLQmMrfJ1dGzOktPuhRANCAASQo06U+9XFK5W4lgVVz9BZaaTHVCSC
WDWdAT2PMYOqbuGm1jptZZSoJworPARo3FW2fRBswcDhT4NI17cZ5AqP
-----END PRIVATE KEY-----
`;

export const TEST_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIB1TCCAXugAwIBAgIBAjAKBggqhkjOPQQDAjAtMSswKQYDVQQDDCJDaGFsa2Jv
YXJkIERlYWxzIHRlc3RzICgxMjcuMC4wLjEpMCAXDTIwMDEwMTAwMDAwMFoYDzIx
MjAwMTAxMDAwMDAwWjAtMSswKQYDVQQDDCJDaGFsa2JvYXJkIERlYWxzIHRlc3Rz
ICgxMjcuMC4wLjEpMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEkKNOlPvVxSuV
uJYFVc/QWWmkx1Qkglg1nQE9jzGDqm7hptY6bWWUqCcKKzwEaNxVtn0QbMHA4U+D
SNe3GeQKj6OBiTCBhjBEBgNVHREEPTA7hwR/AAABhxAAAAAAAAAAAAAAAAAAAAAB
gglsb2NhbGhvc3SCFmltYWdlcy5jaGFsa2JvYXJkLnRlc3QwDwYDVR0TAQH/BAUw
AwEB/zAOBgNVHQ8BAf8EBAMCAoQwHQYDVR0OBBYEFD76La42F4x9auEqjVzpmm87
0GTIMAoGCCqGSM49BAMCA0gAMEUCIQCANAh3ozwMZ/qaXNYmkhjXgELD7l0mLABQ
HOeqy+OWJwIgK3wmV9bBMhhvU4nkFrFcbo5DuLNEgqXdS79qRRp+s3I=
-----END CERTIFICATE-----
`;

export interface LocalHttps {
  /** https://127.0.0.1:<port> */
  base: string;
  /** https://images.chalkboard.test:<port>, the same server by a domain name */
  named: string;
  close(): Promise<void>;
}

export async function startLocalHttps(
  handler: (request: http.IncomingMessage, response: http.ServerResponse) => void,
): Promise<LocalHttps> {
  const before = tls.getCACertificates("default");
  tls.setDefaultCACertificates([...before, TEST_CERTIFICATE]);
  const server = https.createServer({ key: TEST_KEY, cert: TEST_CERTIFICATE }, handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const lookup = dns.lookup;
  dns.lookup = ((hostname: string, options?: unknown) =>
    hostname === TEST_IMAGE_HOST
      ? Promise.resolve([{ address: "127.0.0.1", family: 4 }])
      : (lookup as (h: string, o?: unknown) => Promise<unknown>)(
          hostname,
          options,
        )) as typeof dns.lookup;
  return {
    base: `https://127.0.0.1:${port}`,
    named: `https://${TEST_IMAGE_HOST}:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      tls.setDefaultCACertificates(before);
      dns.lookup = lookup;
    },
  };
}
