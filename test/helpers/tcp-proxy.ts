// A loopback TCP proxy a test can cut and restore: one process's connection to Redis goes away
// (its sockets closed, new ones refused) while everything else keeps talking to Redis.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** redis://127.0.0.1:<proxy port> */
  readonly url: string;
  /** Closes every connection through it and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cut = false;
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        open.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const cutAll = () => {
    cut = true;
    for (const socket of open) socket.destroy();
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: cutAll,
    restore() {
      cut = false;
    },
    async close() {
      cutAll();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
