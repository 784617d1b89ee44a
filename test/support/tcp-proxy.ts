// A TCP proxy in front of a server, to take the server away and bring it back with its data
// intact, as a restart of a real one would (the MongoDB stand-in keeps its data in memory only,
// so stopping it would lose the data rather than simulate a restart).
import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from './http.ts';

export interface TcpProxy {
  /** host:port to connect to instead of the server's. */
  readonly address: string;
  /** Drops every connection and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  stop(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => { client.destroy(); upstream.destroy(); });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const dropAll = () => { for (const socket of sockets) socket.destroy(); };
  return {
    address: `127.0.0.1:${port}`,
    cut() { open = false; dropAll(); },
    restore() { open = true; },
    stop: () => new Promise<void>((resolve) => { dropAll(); server.close(() => resolve()); }),
  };
}
