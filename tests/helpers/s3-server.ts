import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The S3_* variables that point the app at this server. */
  env: Record<string, string>;
  /** Every key in the bucket below `prefix`, sorted, read with a client of its own. */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver) on 127.0.0.1 (or `address`, an address of this machine)
 * and a free port, its files in a temporary folder, with one empty bucket: what the media storage's
 * tests run against. Nothing leaves the machine.
 */
export async function startLocalS3(
  bucket = "chalkboard-media",
  address = "127.0.0.1",
): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-s3-"));
  const server = new S3rver({
    address,
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  // s3rver accepts its own fixed key pair.
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  const endpoint = `http://${address}:${port}`;
  const region = "us-east-1";
  const client = new S3Client({ region, endpoint, forcePathStyle: true, credentials });
  return {
    endpoint,
    bucket,
    region,
    ...credentials,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: region,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    async keys(prefix = "") {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async close() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
