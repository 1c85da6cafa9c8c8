import pg from "pg";

/** Runs `work` on a connection of its own to `databaseUrl`, closed afterwards whatever happens. */
export async function withPgClient<T>(
  databaseUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
