// Removing a certificate removes the folders it leaves empty, up to (never including) the proxy
// folder: a certificatePath of "a/one" leaves no empty "a" behind, while a folder still holding
// another certificate's stays.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { selfSignedCertificate } from '../support/certificate.ts';
import { eventually } from '../support/engine.ts';

describe('a removed certificate\'s folders', () => {
  let berth: TestBerth;
  let dir: string;
  before(async () => {
    berth = await startBerthWithReactors();
    dir = berth.berth.infrastructure.config.proxyDir;
  });
  after(() => berth.stop());

  const created = async (certificatePath: string | undefined) => {
    const { certificateId, certificatePath: path } = await berth.ok('certificates.create',
      { name: 'folders', ...selfSignedCertificate('folders.test'), ...(certificatePath ? { certificatePath } : {}) });
    await eventually('the certificate\'s key', async () => existsSync(join(dir, path, 'privkey.key')));
    return { certificateId, path: String(path) };
  };
  const removed = async ({ certificateId, path }: { certificateId: string; path: string }) => {
    await berth.ok('certificates.remove', { certificateId });
    await eventually('the certificate\'s folder gone', async () => !existsSync(join(dir, path)));
  };

  it('removes each parent folder the removal leaves empty', async () => {
    const outer = `parents-${randomBytes(3).toString('hex')}`;
    await removed(await created(`${outer}/middle/one`));
    await eventually(`${outer} gone`, async () => !existsSync(join(dir, outer)), 5_000);
    assert.ok(existsSync(dir), 'the proxy folder itself stays');
  });

  it('keeps a parent folder that still holds another certificate\'s folder', async () => {
    const outer = `shared-${randomBytes(3).toString('hex')}`;
    const [one, two] = [await created(`${outer}/one`), await created(`${outer}/two`)];
    await removed(one);
    assert.ok(existsSync(join(dir, two.path, 'privkey.key')), 'the other certificate\'s files stay');
    await removed(two);
    await eventually(`${outer} gone with its last certificate`, async () => !existsSync(join(dir, outer)), 5_000);
  });

  it('removes the default folders\' parent once it is empty, and never the proxy folder', async () => {
    const only = await created(undefined);
    assert.match(only.path, /^certificates\//);
    await removed(only);
    await eventually('certificates/ gone', async () => !existsSync(join(dir, 'certificates')), 5_000);
    assert.ok(existsSync(dir), 'the proxy folder itself stays');
  });
});
