// Removing a certificate removes the two files it wrote and nothing else: the folder goes only
// when it is then empty, so a certificate in a nested folder, or one sharing the folder, keeps
// its files. Given as events (the paths' validation is not what is tested here).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { proxyFilePath } from '@berth/shared/adapters/proxy-file';
import { streamName } from '@berth/shared/events/event';
import { envelope } from '@berth/shared/runtime/execute';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { selfSignedCertificate } from '../support/certificate.ts';
import { eventually } from '../support/engine.ts';

describe('a removed certificate\'s files', () => {
  let berth: TestBerth;
  let dir: string;
  let appFile: string;
  before(async () => {
    berth = await startBerthWithReactors();
    dir = berth.berth.infrastructure.config.proxyDir;
    const { projectId } = await berth.ok('project.create', { name: 'certificates' });
    const { applicationId, appName } = await berth.ok('application.create', { name: 'tls', projectId });
    await berth.ok('port.create', { applicationId, publishedPort: 18090, targetPort: 3000 });
    appFile = proxyFilePath(dir, appName);
  });
  after(() => berth.stop());

  const cause = () => ({ actorId: null, correlationId: randomBytes(8).toString('hex'), causationId: null, occurredAt: new Date().toISOString() });
  const created = async (certificatePath: string) => {
    const certificateId = randomBytes(8).toString('hex');
    const pair = selfSignedCertificate(`${certificateId}.test`);
    const data = {
      certificateId, name: certificateId, certificateData: pair.certificateData, privateKey: berth.berth.infrastructure.secrets.seal(pair.privateKey),
      certificatePath, autoRenew: false, commonName: null, domains: [], issuer: 'test', notBefore: '', notAfter: '', fingerprint256: '', createdAt: new Date().toISOString(),
    };
    await berth.berth.infrastructure.eventStore.append(streamName('certificate', certificateId), [envelope({ type: 'CertificateCreated', data }, cause())], 'no_stream');
    return certificateId;
  };
  const removed = (certificateId: string) => berth.berth.infrastructure.eventStore.append(streamName('certificate', certificateId),
    [envelope({ type: 'CertificateRemoved', data: { certificateId } }, cause())], 0);
  /** Resolves once the reactor rewrote the application's file for `count` certificates (after their own files). */
  const served = (count: number) => eventually(`the file with ${count} certificates`, async () =>
    existsSync(appFile) && (parse(readFileSync(appFile, 'utf8')).tls?.certificates?.length ?? 0) === count);
  const filesIn = (path: string) => ['chain.crt', 'privkey.key'].map((name) => existsSync(join(dir, path, name)));

  it('keeps a nested certificate\'s files and the folder holding them, and a shared folder\'s files while one uses them', async () => {
    const outer = `nest-${randomBytes(3).toString('hex')}`;
    const inner = `${outer}/inner`;
    const [first, nested, sharing] = [await created(outer), await created(inner), await created(outer)];
    await served(3);
    assert.deepEqual([...filesIn(outer), ...filesIn(inner)], [true, true, true, true]);

    await removed(first);
    await served(2);
    assert.deepEqual(filesIn(inner), [true, true], 'the nested certificate\'s files stay');
    assert.deepEqual(filesIn(outer), [true, true], 'the files another certificate in the same folder uses stay');

    await removed(sharing);
    await served(1);
    assert.deepEqual(filesIn(outer), [false, false], 'the last certificate of the folder takes its files along');
    assert.deepEqual(filesIn(inner), [true, true]);
    assert.ok(existsSync(join(dir, outer)), 'the folder stays while it holds the nested one');

    await removed(nested);
    await served(0);
    assert.ok(!existsSync(join(dir, inner)), 'an emptied folder goes');
  });
});
