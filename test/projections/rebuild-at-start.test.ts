// Read models projected by older code are rebuilt when Berth starts with code that projects them
// differently (an upgrade), on the SQLite and the MongoDB read stores alike; a restart with the
// same code rebuilds nothing.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { configFrom, type Config } from '@berth/shared/runtime/config';
import { openReadStore } from '@berth/shared/runtime/stores';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { startBerth } from '../support/berth.ts';
import { freshDatabase, startMongo, type TestMongo } from '../support/mongo.ts';

// Spelled out rather than imported: a folder from before the fingerprint has neither.
const BUILT = { collection: 'projectionsBuilt', id: 'fingerprint' };
const REBUILDS = 'projectionRebuild';

/** A Berth on `dataDir` (and `config`'s stores) with an application that has a deployment. */
async function withDeployment(dataDir: string | undefined, config: Partial<Config>) {
  const berth = await startBerth({ ...(dataDir && { dataDir }), config });
  const { projectId } = await berth.ok('project.create', { name: 'p' });
  const { applicationId } = await berth.ok('application.create', { name: 'web', appName: `rebuild-at-start-${Date.now()}`, projectId });
  await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'berth-test/httpd:current', username: null, password: null });
  await berth.ok('application.deploy', { applicationId });
  const [deployment] = await berth.berth.infrastructure.readStore.find('deployment', 'applicationId', applicationId);
  assert.ok(deployment, 'the deployment is projected');
  await berth.stop({ keepData: true });
  return { dataDir: berth.dataDir, applicationId: String(applicationId), deploymentId: String(deployment.deploymentId) };
}

/** Turns the stopped Berth's deployment document into the shape code before 95addec projected. */
async function ageDeployment(reads: ReadStore, deploymentId: string, fingerprint: 'none' | 'older') {
  const doc = await reads.get('deployment', deploymentId);
  assert.ok(doc);
  const { databaseId: _id, databaseType: _type, ...old } = doc;
  // MongoDB keeps a document's write only past the position it was written at: past every one here.
  await reads.commit([], Number.MAX_SAFE_INTEGER, [
    { collection: 'deployment', id: deploymentId, doc: old },
    { ...BUILT, doc: fingerprint === 'none' ? null : { fingerprint: 'older code' } },
  ]);
}

async function rebuildsOf(dataDir: string, config: Partial<Config>): Promise<number> {
  const reads = await openReadStore(configFrom({}, { ...configFrom({ BERTH_DATA_DIR: dataDir }), ...config, roles: [] }));
  try {
    return (await reads.all(REBUILDS)).length;
  } finally {
    await reads.close();
  }
}

for (const store of ['sqlite', 'mongodb'] as const) {
  describe(`read models rebuilt at start (${store})`, () => {
    let mongo: TestMongo | null = null;
    let config: Partial<Config> = {};
    const dirs: string[] = [];
    before(async () => {
      if (store === 'mongodb') {
        mongo = await startMongo();
        config = { mongoUrl: `${mongo.url.replace(/\/$/, '')}/${freshDatabase()}` };
      }
    });
    after(async () => {
      await mongo?.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    const openReads = (dataDir: string) => store === 'sqlite'
      ? Promise.resolve(new SqliteReadStore(join(dataDir, 'read-models.db')))
      : openReadStore(configFrom({}, { ...configFrom({ BERTH_DATA_DIR: dataDir }), ...config, roles: [] }));

    for (const fingerprint of ['none', 'older'] as const) {
      it(`a read model projected by older code is rebuilt at start: application.one answers 200 with the deployment's fields (${fingerprint === 'none' ? 'no fingerprint stored' : 'another fingerprint stored'})`, async () => {
        // Each case on its own MongoDB database: the stand-in's read models belong to one folder.
        if (store === 'mongodb') config = { mongoUrl: `${mongo!.url.replace(/\/$/, '')}/${freshDatabase()}` };
        const { dataDir, applicationId, deploymentId } = await withDeployment(undefined, config);
        dirs.push(dataDir);
        const reads = await openReads(dataDir);
        await ageDeployment(reads, deploymentId, fingerprint);
        await reads.close();
        const before = await rebuildsOf(dataDir, config);

        const berth = await startBerth({ dataDir, config });
        try {
          const answer = await berth.call('application.one', { applicationId });
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          const [deployment] = answer.body.deployments;
          assert.equal(deployment.deploymentId, deploymentId);
          assert.equal(deployment.databaseId, null);
          assert.equal(deployment.databaseType, null);
          const listed = await berth.call('deployment.all', { applicationId });
          assert.equal(listed.status, 200, JSON.stringify(listed.body));
          // Rebuilt from the log, not only answered around: the stored document has the fields again.
          const stored = await berth.berth.infrastructure.readStore.get('deployment', deploymentId);
          assert.ok(stored && 'databaseId' in stored && 'databaseType' in stored, JSON.stringify(stored));
        } finally {
          await berth.stop({ keepData: true });
        }
        assert.equal(await rebuildsOf(dataDir, config), before + 1, 'one rebuild, at start');
      });
    }

    it('a restart with the same code rebuilds nothing', async () => {
      if (store === 'mongodb') config = { mongoUrl: `${mongo!.url.replace(/\/$/, '')}/${freshDatabase()}` };
      const { dataDir } = await withDeployment(undefined, config);
      dirs.push(dataDir);
      const reads = await openReads(dataDir);
      const built = await reads.get(BUILT.collection, BUILT.id);
      await reads.close();
      assert.ok(built, 'the projections stored the fingerprint of what built the read models');
      const before = await rebuildsOf(dataDir, config);
      for (let i = 0; i < 2; i++) {
        const berth = await startBerth({ dataDir, config });
        await berth.stop({ keepData: true });
      }
      assert.equal(await rebuildsOf(dataDir, config), before);
    });
  });
}
