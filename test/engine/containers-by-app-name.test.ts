// container.getContainersByAppNameMatch on the real engine: an application's containers are the one
// named after it and its swarm tasks (`<service>.<slot>.<taskid>`), never another application's
// whose name merely contains it, and the name is taken literally, not as the engine's regex.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import type { Context } from '@berth/command-api/context';
import type { ContainerSummary } from '@berth/shared/ports/container-engine';
import { container } from '@berth/command-api/handlers/engine';
import { TEST_IMAGE, engine, uniqueName } from '../support/engine.ts';

const prefix = uniqueName('berth-match');
const app = `${prefix}-web-1`;
const ours = [app, `${app}.1.abc`];
const others = [`${prefix}-web-10.1.def`, `${prefix}-web-1x`, `x${app}.1.ghi`, `${prefix}xweb-1.1.jkl`];

// Every container here carries the mark of the one service every appName is reserved for: what is
// tested is the rule on names (foreign-engine-objects.test.ts tests the marks).
const OWNER = 'app-owner-1';
const ctx = { infra: { engine, config: { dataDir: '/nonexistent' } }, load: async () => ({ state: { owner: OWNER } }) } as unknown as Context;
const byAppName = async (appName: string) =>
  (await container.getContainersByAppNameMatch!({ appName }, ctx) as ContainerSummary[]).map((found) => found.name).sort();

before(() => {
  for (const name of [...ours, ...others]) execFileSync('docker', ['create', '--name', name, '--label', `berth.applicationId=${OWNER}`, TEST_IMAGE], { stdio: 'ignore' });
});
after(() => {
  execFileSync('docker', ['rm', '-f', ...ours, ...others], { stdio: 'ignore' });
});

test('finds the application\'s own container and its task containers, no other application\'s', async () => {
  assert.deepEqual(await byAppName(app), [...ours].sort());
});

test('takes the name literally: a dot is no wildcard, a bracket no regex error', async () => {
  assert.deepEqual(await byAppName(`${prefix}.web-1`), []);
  assert.deepEqual(await byAppName(`${prefix}(`), []);
});
