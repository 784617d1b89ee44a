// A TCP proxy in front of a server, to take the server away and bring it back with its data
// intact, as a restart of a real one would (the MongoDB stand-in keeps its data in memory only,
// so stopping it would lose the data rather than simulate a restart); or to make it hang, as a
// server that stops answering without closing anything does.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from './http.ts';

export interface TcpProxy {
  /** host:port to connect to instead of the server's. */
  readonly address: string;
  /** Drops every connection and refuses new ones until `restore()`. */
  cut(): void;
  /** Keeps every connection open but moves no byte either way (new ones too) until `restore()`. */
  stall(): void;
  restore(): void;
  stop(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let open = true;
  let stalled = false;
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => { if (!to.write(chunk)) from.pause(); });
    to.on('drain', () => { if (!stalled) from.resume(); });
    from.on('end', () => to.end());
  };
  const server: Server = createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => { client.destroy(); upstream.destroy(); });
      if (stalled) socket.pause();
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const dropAll = () => { for (const socket of sockets) socket.destroy(); };
  return {
    address: `127.0.0.1:${port}`,
    cut() { open = false; dropAll(); },
    stall() {
      stalled = true;
      for (const socket of sockets) socket.pause();
    },
    restore() {
      open = true;
      stalled = false;
      for (const socket of sockets) socket.resume();
    },
    stop: () => new Promise<void>((resolve) => { dropAll(); server.close(() => resolve()); }),
  };
}
