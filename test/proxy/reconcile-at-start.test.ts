// The proxy writer reconciles its folder when it starts: the bus hands it only events after the
// relay's checkpoint, so a configuration saved before the writer existed (an upgrade), or a folder
// lost or restored without its files, would otherwise stay unwritten until the next change.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { proxyFilePath } from '@berth/shared/adapters/proxy-file';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { selfSignedCertificate } from '../support/certificate.ts';
import { eventually } from '../support/engine.ts';

const CONFIG = 'http:\n  routers:\n    shop:\n      rule: Host(`shop.test`)\n      service: shop\n  services:\n    shop:\n'
  + '      loadBalancer:\n        servers:\n          - url: http://127.0.0.1:9/\n';

/** A Berth with an application whose configuration is saved and written, stopped with its data kept. */
async function stoppedWithApplication() {
  const berth = await startBerthWithReactors();
  const { projectId } = await berth.ok('project.create', { name: 'p' });
  const { applicationId, appName } = await berth.ok('application.create', { name: 'web', projectId });
  await berth.ok('application.updateProxyConfig', { applicationId, proxyConfig: CONFIG });
  const dir = berth.berth.infrastructure.config.proxyDir;
  const file = proxyFilePath(dir, appName);
  await eventually('the application\'s file', async () => existsSync(file) && readFileSync(file, 'utf8').includes('shop.test'));
  await berth.stop({ keepData: true });
  return { dataDir: berth.dataDir, dir, file, applicationId, appName };
}

/** Runs `check` on a Berth started again on `dataDir`, then removes it. */
async function restarted(dataDir: string, check: (berth: TestBerth) => Promise<void>) {
  const berth = await startBerthWithReactors({ dataDir });
  try {
    await check(berth);
  } finally {
    await berth.stop();
  }
}

describe('the proxy writer reconciles its folder at start', () => {
  it('an application\'s proxy file missing at start is written by the proxy writer', async () => {
    const { dataDir, file, applicationId } = await stoppedWithApplication();
    rmSync(file);
    await restarted(dataDir, async (berth) => {
      await eventually('the file written again', async () => existsSync(file) && readFileSync(file, 'utf8').includes('shop.test'));
      const answer = await berth.ok<string | null>('application.readProxyConfig', { applicationId });
      assert.match(String(answer), /Host\(`shop\.test`\)/);
    });
  });

  it('a file of an application that no longer exists is removed at start', async () => {
    const { dataDir, dir, file, applicationId, appName } = await stoppedWithApplication();
    // A file Berth wrote for an application this log does not hold (a data folder restored from before it).
    const ghost = proxyFilePath(dir, `ghost-${randomBytes(3).toString('hex')}`);
    writeFileSync(ghost, readFileSync(file, 'utf8').replaceAll(applicationId, randomUUID()).replaceAll(appName, 'ghost'));
    // Files Berth cannot prove it wrote stay: one without its header, one whose header names no application.
    const mine = join(dir, 'mine.yml');
    writeFileSync(mine, CONFIG);
    const unnamed = join(dir, 'unnamed.yml');
    writeFileSync(unnamed, `# The proxy's dynamic configuration of unnamed, written by Berth.\n${CONFIG}`);
    await restarted(dataDir, async () => {
      await eventually('the ghost file removed', async () => !existsSync(ghost));
      assert.ok(existsSync(file), 'the application\'s own file is gone');
      assert.ok(existsSync(mine), 'a file Berth did not write is gone');
      assert.ok(existsSync(unnamed), 'a file naming no application is gone');
    });
  });

  it('a certificate\'s files missing at start are written again', async () => {
    const berth = await startBerthWithReactors();
    const dir = berth.berth.infrastructure.config.proxyDir;
    const certificatePath = `start-${randomBytes(3).toString('hex')}`;
    const keyFile = join(dir, certificatePath, 'privkey.key');
    await berth.ok('certificates.create', { name: 'start', ...selfSignedCertificate('start.test'), certificatePath });
    await eventually('the certificate\'s key', async () => existsSync(keyFile));
    const key = readFileSync(keyFile, 'utf8');
    await berth.stop({ keepData: true });
    rmSync(dir, { recursive: true });
    await restarted(berth.dataDir, async () => {
      await eventually('the certificate\'s key written again', async () => existsSync(keyFile) && readFileSync(keyFile, 'utf8') === key);
      assert.ok(existsSync(join(dir, certificatePath, 'chain.crt')));
    });
  });
});
