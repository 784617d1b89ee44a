// Settings of a database the engine could never run as given are refused when saved (400 naming the
// field, nothing appended), not taken and failed at every deploy: an image reference the engine
// cannot parse, a command with a quote left open. An empty image is the kind's default, as on create.
// A record saved before these checks stays editable. No reactors run here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { DEFAULT_IMAGES, ENGINES } from '@berth/shared/contract/databases';

describe('database settings checked on save', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'berth-test-ds-save' }));
  });
  after(() => berth.stop());

  for (const engine of ENGINES) {
    const idField = `${engine}Id`;
    const create = (extra: Record<string, unknown> = {}) =>
      berth.ok(`${engine}.create`, { name: 'db', appName: 'berth-test-ds-db', projectId, ...databaseCredentials(engine), ...extra });

    it(`refuses a ${engine} image reference the engine cannot parse, on create and update, naming containerImage`, async () => {
      for (const image of ['Not A Valid:Image!', 'Owner/app:1', 'app:-tag', 'app:1:2', 'my_host:5000/app']) {
        await berth.refused(`${engine}.create`, { name: 'db', appName: 'berth-test-ds-db', projectId, ...databaseCredentials(engine), containerImage: image }, 400, 'containerImage');
      }
      const { [idField]: id } = await create();
      await berth.refused(`${engine}.update`, { [idField]: id, containerImage: 'Not A Valid:Image!' }, 400, 'containerImage');
      for (const image of ['postgres:16', 'localhost:5000/team/app', `registry.example.com/a/b@sha256:${'a'.repeat(64)}`]) {
        assert.equal((await berth.ok(`${engine}.update`, { [idField]: id, containerImage: image })).containerImage, image);
      }
    });

    it(`takes an empty ${engine} image as the kind's default, as create does`, async () => {
      const { [idField]: id } = await create({ containerImage: 'postgres:16' });
      assert.equal((await berth.ok(`${engine}.update`, { [idField]: id, containerImage: '' })).containerImage, DEFAULT_IMAGES[engine]);
    });

    it(`refuses a ${engine} command with a quote left open, naming command, and takes a closed one`, async () => {
      const { [idField]: id } = await create();
      await berth.refused(`${engine}.update`, { [idField]: id, command: 'server "--flag value' }, 400, 'command');
      await berth.refused(`${engine}.update`, { [idField]: id, command: "server --name 'it" }, 400, 'command');
      assert.equal((await berth.ok(`${engine}.update`, { [idField]: id, command: 'server --name "a b"' })).command, 'server --name "a b"');
    });
  }
});
