import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { eventStoreConformance } from './event-store-conformance.ts';

const dirs: string[] = [];
after(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

for (const synchronous of ['FULL', 'NORMAL'] as const) {
  eventStoreConformance(`sqlite (synchronous ${synchronous})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-events-'));
    dirs.push(dir);
    return new SqliteEventStore(join(dir, 'events.db'), { synchronous });
  });
}
