import https from "node:https";
import type { AddressInfo } from "node:net";
import type http from "node:http";
import tls from "node:tls";

/*
 * An HTTPS server on 127.0.0.1 for tests that make the server fetch https: addresses (images
 * copied into posts, core/media/outside-images.ts) without reaching the internet. Its key and
 * self-signed certificate (127.0.0.1, ::1, localhost; valid 2020 to 2120) are for these tests only
 * and secure nothing. The test process trusts the certificate beside the system's authorities
 * while the server runs (tls.setDefaultCACertificates), so the code under test needs no switch.
 */

const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgWT0wl/oS8OdP9Dfc
sysf5fdbGMmxa30h211HCFfnKYWhRANCAAQmMR7WdrUHL5OCb7429fju6TLOef90
ChxdWKe52ICpGWpIFaaHdkQH0on/fJOFI17pfs95S4Q2oDsihO5hPtSp
-----END PRIVATE KEY-----
`;

export const TEST_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBuzCCAWGgAwIBAgIBATAKBggqhkjOPQQDAjAtMSswKQYDVQQDDCJDaGFsa2Jv
YXJkIERlYWxzIHRlc3RzICgxMjcuMC4wLjEpMCAXDTIwMDEwMTAwMDAwMFoYDzIx
MjAwMTAxMDAwMDAwWjAtMSswKQYDVQQDDCJDaGFsa2JvYXJkIERlYWxzIHRlc3Rz
ICgxMjcuMC4wLjEpMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEJjEe1na1By+T
gm++NvX47ukyznn/dAocXVinudiAqRlqSBWmh3ZEB9KJ/3yThSNe6X7PeUuENqA7
IoTuYT7UqaNwMG4wLAYDVR0RBCUwI4cEfwAAAYcQAAAAAAAAAAAAAAAAAAAAAYIJ
bG9jYWxob3N0MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgKEMB0GA1Ud
DgQWBBTHW9R2y5UgrwUyLTuff7jVZccz+zAKBggqhkjOPQQDAgNIADBFAiEAwAxh
g6cRc5LeM/9NiXPvlGjxq42SBKCrTX1COk9rmz8CIEFSDRYhyqiSJOB8Qj1Zhdjm
Ge1Q/vgPFOs4DIioMQOL
-----END CERTIFICATE-----
`;

export interface LocalHttps {
  /** https://127.0.0.1:<port> */
  base: string;
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
  return {
    base: `https://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      tls.setDefaultCACertificates(before);
    },
  };
}
