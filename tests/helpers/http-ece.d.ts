/** The part of http_ece (web-push's encryption, RFC 8188) the tests' push service uses; it ships no types. */
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  interface DecryptParams {
    version: "aes128gcm" | "aesgcm";
    privateKey: ECDH;
    authSecret: Buffer | string;
    dh?: Buffer | string;
  }
  const ece: { decrypt(buffer: Buffer, params: DecryptParams): Buffer };
  export default ece;
}
