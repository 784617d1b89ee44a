import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Registry } from '@berth/shared/domain/registry/registry';
import type { ComposeDeps } from './deps.ts';
import { registryAuths, registryLogins } from './registries.ts';

const registry = (registryId: string, registryUrl: string, username: string): Registry => ({
  registryId, registryName: registryId, username, password: `enc:v1:${username}-password`, registryUrl, registryType: 'cloud', imagePrefix: null,
  adminId: 'a', createdAt: `2026-01-0${registryId.length}T00:00:00.000Z`,
});
/** Oldest first, as the read models answer; the password opened as it is stored. */
const depsWith = (registries: Registry[]) =>
  ({ records: { registries: async () => registries }, secrets: { open: (sealed: string) => sealed.replace('enc:v1:', '') } }) as unknown as ComposeDeps;

describe('the logins of the registries Berth knows, for a compose file\'s images', () => {
  const hub = registry('r', '', 'hub-user');
  const first = registry('rr', 'registry.example.test:5000', 'first');
  const second = registry('rrr', 'registry.example.test:5000', 'second');
  const deps = depsWith([hub, first, second]);

  it('lends a stack\'s image the login of the registry its host names, the oldest of two on one host; one saved without a URL is the default registry', async () => {
    const authFor = await registryAuths(deps);
    assert.equal(authFor('registry.example.test:5000/team/web:1')?.username, 'first');
    assert.equal(authFor('myorg/private:1')?.username, 'hub-user');
    assert.equal(authFor('docker.io/myorg/private:1')?.username, 'hub-user');
    assert.equal(authFor('other.example.test/web:1'), undefined);
  });

  describe('the compose tool\'s config folder', () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'berth-docker-config-')));
    const before = process.env.DOCKER_CONFIG;
    after(() => {
      if (before === undefined) delete process.env.DOCKER_CONFIG; else process.env.DOCKER_CONFIG = before;
      rmSync(home, { recursive: true, force: true });
    });

    it('keeps the operator\'s settings and plugins, with Berth\'s logins in place of any store for their hosts, and goes with remove()', async () => {
      mkdirSync(join(home, 'cli-plugins'));
      writeFileSync(join(home, 'cli-plugins', 'docker-compose'), '#!/bin/sh\n');
      writeFileSync(join(home, 'config.json'), JSON.stringify({
        proxies: { default: { httpProxy: 'http://proxy.test:3128' } }, credsStore: 'desktop',
        credHelpers: { 'registry.example.test:5000': 'ecr-login', 'elsewhere.test': 'gcloud' }, auths: { 'elsewhere.test': { auth: 'x' } },
      }));
      process.env.DOCKER_CONFIG = home;
      const logins = (await registryLogins(deps))!;
      const config = JSON.parse(readFileSync(join(logins.dir, 'config.json'), 'utf8'));
      assert.deepEqual(config.proxies, { default: { httpProxy: 'http://proxy.test:3128' } });
      assert.equal(config.credsStore, undefined);
      assert.deepEqual(config.credHelpers, { 'elsewhere.test': 'gcloud' });
      assert.deepEqual(Object.keys(config.auths).sort(), ['elsewhere.test', 'https://index.docker.io/v1/', 'registry.example.test:5000']);
      assert.equal(Buffer.from(config.auths['registry.example.test:5000'].auth, 'base64').toString(), 'first:first-password');
      assert.equal(readFileSync(join(logins.dir, 'cli-plugins', 'docker-compose'), 'utf8'), '#!/bin/sh\n');
      await logins.remove();
      assert.throws(() => readFileSync(join(logins.dir, 'config.json')));
      assert.equal(await registryLogins(depsWith([])), null);
    });
  });
});
