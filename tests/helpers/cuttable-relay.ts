import net from "node:net";

/**
 * A TCP relay in front of PostgreSQL that can be cut (every connection dropped, new ones refused).
 * It listens on 127.0.0.1 and a free port unless told where (the multi-host test, tests/hosts/,
 * relays the hosts' network to PostgreSQL on loopback).
 */
export async function startCuttableRelay(target: URL, at: { host?: string; port?: number } = {}) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve) => server.listen(port, at.host ?? "127.0.0.1", resolve));
  await listen(at.port ?? 0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    restore: () => listen(port),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
