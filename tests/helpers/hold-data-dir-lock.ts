// A process that takes DATA_DIR's lock as the server does (db/lock.ts) and holds it until it is
// killed; tests/integration/data-dir-lock.test.ts runs several, some in PID namespaces of their own.
import { DataDirLockedError, lockDataDir } from "../../db/lock.ts";

const dataDir = process.argv[2];
if (!dataDir) {
  console.error("usage: hold-data-dir-lock.ts DATA_DIR");
  process.exitCode = 2;
} else {
  try {
    lockDataDir(dataDir);
    console.log(`locked as pid ${process.pid}`);
    setInterval(() => {}, 60_000);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
