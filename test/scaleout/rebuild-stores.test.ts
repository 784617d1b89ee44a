// `pnpm rebuild-projections` opens its stores from the runtime's configuration, as every role
// does: the same command rebuilds the embedded SQLite read models and the MongoDB ones (the
// stand-in, or MONGO_URL), each ending equal to what the projections had built live.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rebuildStores } from '@berth/projections/rebuild-cli';
import { withoutBookkeeping } from '@berth/projections/runner';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { configFrom } from '@berth/shared/runtime/config';
import { openReadStore } from '@berth/shared/runtime/stores';
import type { Doc } from '@berth/shared/ports/read-store';
import { startBerth } from '../support/berth.ts';
import { freshDatabase, startMongo, type TestMongo } from '../support/mongo.ts';
import { startNats } from '../support/nats.ts';
import { eventually, startRole } from '../support/role-process.ts';

const sorted = (docs: Doc[]) => docs.map(withoutBookkeeping).sort((a, b) => String(a.projectId).localeCompare(String(b.projectId)));

describe('rebuilding the read models on the configured stores', () => {
  let dataDir: string;
  let live: Doc[];
  let mongo: TestMongo;
  before(async () => {
    const berth = await startBerth();
    for (let i = 0; i < 5; i++) {
      const { projectId } = await berth.ok('project.create', { name: `p${i}` });
      await berth.ok('project.update', { projectId, name: `p${i} renamed` });
    }
    dataDir = berth.dataDir;
    live = sorted(await berth.berth.infrastructure.readStore.all('project'));
    await berth.stop({ keepData: true });
    mongo = await startMongo();
  });
  after(async () => {
    await mongo?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('rebuilds the SQLite read models of the data folder, replacing a damaged one', async () => {
    const damaged = new SqliteReadStore(join(dataDir, 'read-models.db'));
    await damaged.commit([], 0, [{ collection: 'project', id: String(live[0]!.projectId), doc: null }]);
    await damaged.close();
    const config = configFrom({ BERTH_DATA_DIR: dataDir });
    const { events } = await rebuildStores(config);
    assert.ok(events >= 10);
    const reads = await openReadStore(config);
    assert.deepEqual(sorted(await reads.all('project')), live);
    await reads.close();
  });

  it('rebuilds the MongoDB read models the configuration names, from the same log', async () => {
    const config = configFrom({ BERTH_DATA_DIR: dataDir, BERTH_MONGO_URL: `${mongo.url.replace(/\/$/, '')}/${freshDatabase()}` });
    await rebuildStores(config);
    const reads = await openReadStore(config);
    assert.deepEqual(sorted(await reads.all('project')), live);
    await reads.close();
  });

  it('refuses while a projections process holds their NATS lease, and rebuilds once it stopped', async () => {
    const nats = await startNats();
    const env = { BERTH_DATA_DIR: dataDir, BERTH_MONGO_URL: `${mongo.url.replace(/\/$/, '')}/${freshDatabase()}`, BERTH_NATS_URL: nats.url, BERTH_LEASE_TTL_MS: '1500' };
    const projections = startRole('projections', env);
    try {
      const config = configFrom(env);
      const reads = await openReadStore(config);
      const projected = async () => JSON.stringify(sorted(await reads.all('project'))) === JSON.stringify(live);
      await eventually(projected, 30_000, 'the projections process builds the read models');
      await assert.rejects(rebuildStores(config), /^Error: Berth's projections run on these read models \(a process holds their NATS lease\): stop them first/);
      // Refused before anything was cleared.
      assert.deepEqual(sorted(await reads.all('project')), live);
      await reads.close();
      projections.child.kill('SIGTERM');
      await projections.exited;
      await rebuildStores(config);
    } finally {
      projections.child.kill('SIGKILL');
      await nats.stop();
    }
  });
});
