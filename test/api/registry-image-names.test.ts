// A registry's URL path and image prefix start every image name Berth pushes there: one that can
// never form an image reference is refused with 400 naming its field, on create, update and
// testRegistry, and nothing is recorded. A registry's admin is an admin account.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { invitedUser } from '../support/users.ts';

const HOST = '127.0.0.1:47512';
const LONG_PATH = `${HOST}/${'a'.repeat(300)}`;
const fields = { registryName: 'names', username: 'u', password: 'p', registryType: 'cloud' };

describe('registry image names', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  it('refuses on create a registryUrl whose path can never be part of an image name, naming registryUrl', async () => {
    for (const registryUrl of [`${HOST}/../x`, `${HOST}/Team_X`, `${HOST}/a//b`, `https://${HOST}/./x`, LONG_PATH]) {
      await berth.refused('registry.create', { ...fields, registryUrl, imagePrefix: null }, 400, 'registryUrl');
    }
  });

  it('refuses on create an imagePrefix that can never be part of an image name, naming imagePrefix', async () => {
    for (const imagePrefix of ['Team Space', '../..', 'a//b', '-x', 'x'.repeat(300)]) {
      await berth.refused('registry.create', { ...fields, registryUrl: HOST, imagePrefix }, 400, 'imagePrefix');
    }
  });

  it('accepts paths and prefixes of the reference grammar', async () => {
    const created = await berth.ok('registry.create', { ...fields, registryUrl: `${HOST}/team.one/sub_dir`, imagePrefix: '/apps--x/v1.2/' });
    assert.equal(created.imagePrefix, '/apps--x/v1.2/');
  });

  it('refuses on update a path or prefix that cannot form an image name, and a prefix too long beside the saved path', async () => {
    const { registryId } = await berth.ok('registry.create', { ...fields, registryUrl: `${HOST}/${'p'.repeat(150)}`, imagePrefix: null });
    await berth.refused('registry.update', { registryId, registryUrl: `${HOST}/../x` }, 400, 'registryUrl');
    await berth.refused('registry.update', { registryId, imagePrefix: 'Team Space' }, 400, 'imagePrefix');
    await berth.refused('registry.update', { registryId, imagePrefix: 'q'.repeat(60) }, 400, 'imagePrefix');
    await berth.ok('registry.update', { registryId, imagePrefix: 'team' });
  });

  it('refuses in testRegistry a path or prefix that cannot form an image name, before asking any registry', async () => {
    await berth.refused('registry.testRegistry', { ...fields, registryUrl: `${HOST}/../x` }, 400, 'registryUrl');
    await berth.refused('registry.testRegistry', { ...fields, registryUrl: HOST, imagePrefix: 'Team Space' }, 400, 'imagePrefix');
  });

  it('refuses an update that makes a user account the registry\'s admin, naming adminId', async () => {
    const { registryId } = await berth.ok('registry.create', { ...fields, registryUrl: HOST, imagePrefix: null });
    const user = await invitedUser(berth);
    await berth.refused('registry.update', { registryId, adminId: user.id }, 400, 'adminId');
    const admin = (await berth.ok('registry.one', { registryId })).adminId;
    await berth.ok('registry.update', { registryId, adminId: admin });
  });
});
