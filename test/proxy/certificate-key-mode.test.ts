// A certificate's files are readable by their owner only (0600), whatever mode a file on disk had
// (a restore or copy that lost modes): a rewrite and the reconcile at start both bring it back. A
// new file replaces the old one whole (a temporary file renamed over it), never written in place.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { writeCertificateFiles } from '@berth/reactors/proxy/certificate-files';
import { startBerthWithReactors } from '../support/berth.ts';
import { selfSignedCertificate } from '../support/certificate.ts';
import { eventually } from '../support/engine.ts';

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('a certificate\'s files on disk', () => {
  const proxyDir = mkdtempSync(join(tmpdir(), 'berth-key-mode-'));
  after(() => rmSync(proxyDir, { recursive: true, force: true }));
  const pair = selfSignedCertificate('mode.test');
  const filesIn = (path: string) => ({ chain: join(proxyDir, path, 'chain.crt'), key: join(proxyDir, path, 'privkey.key') });

  it('replaces a key file of another mode and content whole, leaving both files 0600 and no temporary file', async () => {
    const files = filesIn('replaced');
    mkdirSync(join(proxyDir, 'replaced'));
    writeFileSync(files.chain, 'an old chain\n', { mode: 0o644 });
    writeFileSync(files.key, 'an old key\n', { mode: 0o644 });
    const inodes = [statSync(files.chain).ino, statSync(files.key).ino];
    await writeCertificateFiles(proxyDir, 'replaced', pair.certificateData, pair.privateKey);
    assert.equal(readFileSync(files.key, 'utf8'), pair.privateKey);
    assert.equal(modeOf(files.key).toString(8), '600');
    assert.equal(modeOf(files.chain).toString(8), '600');
    assert.notEqual(statSync(files.chain).ino, inodes[0], 'the chain was written in place, not renamed over');
    assert.notEqual(statSync(files.key).ino, inodes[1], 'the key was written in place, not renamed over');
    assert.deepEqual(readdirSync(join(proxyDir, 'replaced')).sort(), ['chain.crt', 'privkey.key']);
  });

  it('brings a key file whose content matches back to 0600', async () => {
    const files = filesIn('matching');
    await writeCertificateFiles(proxyDir, 'matching', pair.certificateData, pair.privateKey);
    chmodSync(files.key, 0o644);
    chmodSync(files.chain, 0o666);
    await writeCertificateFiles(proxyDir, 'matching', pair.certificateData, pair.privateKey);
    assert.equal(modeOf(files.key).toString(8), '600');
    assert.equal(modeOf(files.chain).toString(8), '600');
  });
});

describe('the reconcile at start', () => {
  it('brings the key file of a certificate that lost its mode back to 0600', async () => {
    const first = await startBerthWithReactors();
    const dir = first.berth.infrastructure.config.proxyDir;
    const certificatePath = `mode-${randomBytes(3).toString('hex')}`;
    const keyFile = join(dir, certificatePath, 'privkey.key');
    await first.ok('certificates.create', { name: 'mode', ...selfSignedCertificate('mode.test'), certificatePath });
    await eventually('the certificate\'s key', async () => existsSync(keyFile));
    assert.equal(modeOf(keyFile).toString(8), '600');
    await first.stop({ keepData: true });
    // A restore that lost modes.
    chmodSync(keyFile, 0o644);
    const again = await startBerthWithReactors({ dataDir: first.dataDir });
    try {
      await eventually('the key back at 0600', async () => modeOf(keyFile) === 0o600, 10_000);
    } finally {
      await again.stop();
    }
  });
});
