// The proxy-files reactor acts on the log as it is when it runs, not on the event alone: the bus
// hands a failed event out again after later ones of its stream, so a certificate's creation may
// be handled after its removal, and must not write the removed key back. And a certificate reaches
// every application's file, even when one application's file cannot be written.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { proxyFilePath } from '@berth/shared/adapters/proxy-file';
import { streamName } from '@berth/shared/events/event';
import { proxyReactor } from '@berth/reactors/proxy/reactor';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { selfSignedCertificate } from '../support/certificate.ts';
import { eventually } from '../support/engine.ts';

describe('certificate files follow the log', () => {
  let berth: TestBerth;
  let dir: string;
  before(async () => {
    berth = await startBerthWithReactors();
    dir = berth.berth.infrastructure.config.proxyDir;
  });
  after(() => berth.stop());

  const application = async (name: string, publishedPort: number) => {
    const { projectId } = await berth.ok('project.create', { name });
    const { applicationId, appName } = await berth.ok('application.create', { name, projectId });
    await berth.ok('port.create', { applicationId, publishedPort, targetPort: 3000 });
    return { applicationId, file: proxyFilePath(dir, appName) };
  };
  const certificatesIn = (file: string): string[] => existsSync(file)
    ? (parse(readFileSync(file, 'utf8')).tls?.certificates ?? []).map((entry: { certFile: string }) => entry.certFile) : [];

  /** The certificate's creation as the log holds it: what the bus hands out again after a failure. */
  const creationOf = async (certificateId: string) => {
    const [creation] = (await berth.berth.infrastructure.eventStore.readStream(streamName('certificate', certificateId))).events;
    assert.equal(creation?.type, 'CertificateCreated');
    return creation!;
  };

  it('does not write back the key of a certificate whose creation is handled again after its removal', async () => {
    const certificatePath = `late-${randomBytes(3).toString('hex')}`;
    const keyFile = join(dir, certificatePath, 'privkey.key');
    const { certificateId } = await berth.ok('certificates.create', { name: 'late', ...selfSignedCertificate('late.test'), certificatePath });
    await eventually('the certificate\'s key on disk', async () => existsSync(keyFile));
    await berth.ok('certificates.remove', { certificateId });
    await eventually('the removed certificate\'s key gone', async () => !existsSync(keyFile));

    // The bus's retry of the creation, which had failed before the removal was handled.
    await proxyReactor(berth.berth.infrastructure).handle(await creationOf(certificateId));
    assert.ok(!existsSync(keyFile), 'the removed certificate\'s private key is on disk again');
    assert.ok(!existsSync(join(dir, certificatePath)), 'the removed certificate\'s folder is back');
  });

  it('gives a new certificate to every application after one whose file cannot be written, and fails for that one', async () => {
    const apps = [await application('first', 18101), await application('second', 18102)];
    await eventually('both files', async () => apps.every((app) => existsSync(app.file)));
    // The application the certificate event rewrites first is the one whose file is in the way.
    const order = (await berth.berth.infrastructure.readStore.all('application')).map((app) => String(app.applicationId));
    const [blocked, other] = [...apps].sort((a, b) => order.indexOf(a.applicationId) - order.indexOf(b.applicationId));
    rmSync(blocked!.file);
    mkdirSync(join(blocked!.file, 'in-the-way'), { recursive: true });
    try {
      const certificatePath = `every-${randomBytes(3).toString('hex')}`;
      const { certificateId } = await berth.ok('certificates.create', { name: 'every', ...selfSignedCertificate('every.test'), certificatePath });
      await eventually('the certificate in the other application\'s file', async () =>
        certificatesIn(other!.file).some((certFile) => certFile === join(dir, certificatePath, 'chain.crt')));
      await assert.rejects(proxyReactor(berth.berth.infrastructure).handle(await creationOf(certificateId)), new RegExp(`application ${blocked!.applicationId}`));
    } finally {
      rmSync(blocked!.file, { recursive: true, force: true });
    }
  });
});
