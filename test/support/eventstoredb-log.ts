// The log behind the EventStoreDB test server: streams with revisions, $all with commit
// positions that are neither small nor consecutive (as byte offsets in a real server's log), the
// server's own system events interleaved, and idempotent appends of already written event ids.

export interface StoredEvent {
  readonly id: string;
  readonly stream: string;
  readonly revision: number;
  readonly type: string;
  readonly contentType: string;
  readonly data: Uint8Array;
  readonly customMetadata: Uint8Array;
  readonly position: bigint;
  readonly created: bigint;
}

export interface Proposed {
  readonly id: string;
  readonly type: string;
  readonly contentType: string;
  readonly data: Uint8Array;
  readonly customMetadata: Uint8Array;
}

/** `any`, `no_stream`, `stream_exists` or the stream's last revision. */
export type Expected = 'any' | 'no_stream' | 'stream_exists' | bigint;

export type AppendOutcome =
  | { readonly ok: true; readonly revision: number; readonly position: bigint }
  | { readonly ok: false; readonly current: number };

export class TestLog {
  readonly all: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private next = 1_000_000_000n;
  private readonly listeners = new Set<(event: StoredEvent) => void>();

  constructor() {
    this.write('$epoch-information', '$epoch', []);
  }

  stream(name: string): readonly StoredEvent[] {
    return this.streams.get(name) ?? [];
  }

  onAppended(listener: (event: StoredEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  append(name: string, expected: Expected, proposed: readonly Proposed[]): AppendOutcome {
    const existing = this.stream(name);
    const current = existing.length - 1;
    // A retry of events already written right after the expected revision succeeds, writing nothing.
    const start = typeof expected === 'bigint' ? Number(expected) + 1 : expected === 'no_stream' ? 0 : -1;
    if (start >= 0 && proposed.length > 0 && proposed.every((event, i) => existing[start + i]?.id === event.id)) {
      const last = existing[start + proposed.length - 1]!;
      return { ok: true, revision: last.revision, position: last.position };
    }
    const matches = expected === 'any' || (expected === 'no_stream' && current === -1)
      || (expected === 'stream_exists' && current >= 0) || (typeof expected === 'bigint' && Number(expected) === current);
    if (!matches) return { ok: false, current };
    const written = this.write(name, '', proposed);
    // The server writes its own events too; Berth must never see them.
    if (this.all.length % 7 === 0) this.write('$stats-127.0.0.1:2113', '$statsCollected', []);
    const last = written[written.length - 1];
    return { ok: true, revision: last?.revision ?? current, position: last?.position ?? this.next };
  }

  private write(name: string, systemType: string, proposed: readonly Proposed[]): StoredEvent[] {
    const events = systemType ? [{ id: crypto.randomUUID(), type: systemType, contentType: 'application/json',
      data: new TextEncoder().encode('{}'), customMetadata: new Uint8Array() }] : proposed;
    const stream = this.streams.get(name) ?? [];
    this.streams.set(name, stream);
    const written = events.map((event) => {
      const stored: StoredEvent = { ...event, stream: name, revision: stream.length, position: this.next, created: 0n };
      this.next += BigInt(128 + event.data.length + event.customMetadata.length);
      stream.push(stored);
      this.all.push(stored);
      return stored;
    });
    for (const event of written) for (const listener of this.listeners) listener(event);
    return written;
  }
}
