// A TCP proxy in front of a server, to take the server away and bring it back with its data
// intact, as a restart of a real one would (the MongoDB stand-in keeps its data in memory only,
// so stopping it would lose the data rather than simulate a restart); or to make it hang, as a
// server that stops answering without closing anything does; or to lose it without a word, as a
// host that vanishes from the network does.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from './http.ts';

export interface TcpProxy {
  /** host:port to connect to instead of the server's. */
  readonly address: string;
  /** Drops every connection and refuses new ones until `restore()`. */
  cut(): void;
  /** Keeps every connection open but moves no byte either way (new ones too) until `restore()`. */
  stall(): void;
  /**
   * Keeps every connection open and moves no byte on it ever again, even after `restore()`, as a
   * host gone without closing anything leaves them; new ones fare the same until `restore()`.
   */
  blackhole(): void;
  restore(): void;
  stop(): Promise<void>;
}

interface Link {
  readonly sockets: readonly Socket[];
  /** Blackholed: paused for good. */
  lost: boolean;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const links = new Set<Link>();
  let mode: 'open' | 'cut' | 'stalled' | 'blackhole' = 'open';
  const forward = (link: Link, from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => { if (!to.write(chunk)) from.pause(); });
    to.on('drain', () => { if (mode !== 'stalled' && !link.lost) from.resume(); });
    from.on('end', () => to.end());
  };
  const pause = (link: Link) => { for (const socket of link.sockets) socket.pause(); };
  const lose = (link: Link) => {
    link.lost = true;
    pause(link);
  };
  /** Follows a connection's sockets until they close; an error on one closes them all. */
  const track = (sockets: Socket[]): Link => {
    const link: Link = { sockets, lost: false };
    links.add(link);
    for (const socket of sockets) {
      socket.on('close', () => links.delete(link));
      socket.on('error', () => { for (const each of sockets) each.destroy(); });
    }
    return link;
  };
  const server: Server = createServer((client) => {
    if (mode === 'cut') return void client.destroy();
    if (mode === 'blackhole') return void lose(track([client]));
    const upstream = connect(target.port, target.host);
    const link = track([client, upstream]);
    if (mode === 'stalled') pause(link);
    forward(link, client, upstream);
    forward(link, upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const dropAll = () => { for (const link of links) for (const socket of link.sockets) socket.destroy(); };
  return {
    address: `127.0.0.1:${port}`,
    cut() { mode = 'cut'; dropAll(); },
    stall() {
      mode = 'stalled';
      for (const link of links) pause(link);
    },
    blackhole() {
      mode = 'blackhole';
      for (const link of links) lose(link);
    },
    restore() {
      mode = 'open';
      for (const link of links) if (!link.lost) for (const socket of link.sockets) socket.resume();
    },
    stop: () => new Promise<void>((resolve) => { dropAll(); server.close(() => resolve()); }),
  };
}
