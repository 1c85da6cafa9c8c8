// MinIO's stand-in: s3rver on :9000, path-style (the site's S3_ENDPOINT), making S3_BUCKET at start.
// MinIO's own arguments (`server /data`) are ignored.
import S3rver from "s3rver";

await new S3rver({
  address: "0.0.0.0",
  port: 9000,
  directory: "/data",
  silent: true,
  vhostBuckets: false,
  configureBuckets: [{ name: process.env.S3_BUCKET || "chalkboard-media" }],
}).run();
console.log("s3rver is listening on port 9000");
