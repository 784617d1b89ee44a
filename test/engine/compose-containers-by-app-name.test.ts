// container.getContainersByAppLabel and container.getContainersByAppNameMatch of a compose service's
// appName, on the real engine: a stack's task containers (`<appName>_<service>.<slot>.<taskid>`) and a
// compose project's containers (`<appName>_<service>_<n>` of the compose tool here, `<appName>-<service>-<n>`
// of its newer versions), never those of another stack or project whose appName merely starts with it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Context } from '@berth/command-api/context';
import { appMonitoring, container } from '@berth/command-api/handlers/engine';
import type { ContainerSummary } from '@berth/shared/ports/container-engine';
import { TEST_IMAGE, engine, eventually, uniqueName } from '../support/engine.ts';
import { removeStacks } from '../support/stacks.ts';

// Every container here carries the mark of the one service every appName is reserved for: what is
// tested is the rule on names and labels (foreign-engine-objects.test.ts tests the marks).
const OWNER = 'compose-owner-1';
const ctx = { infra: { engine, config: { dataDir: '/nonexistent' } }, load: async () => ({ state: { owner: OWNER } }) } as unknown as Context;
const namesOf = (found: unknown) => (found as ContainerSummary[]).map(({ name }) => name).sort();
const byLabel = async (appName: string) => namesOf(await container.getContainersByAppLabel!({ appName }, ctx));
const byName = async (appName: string) => namesOf(await container.getContainersByAppNameMatch!({ appName }, ctx));

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const FILE = `version: "3.8"\nservices:\n  web:\n    image: ${TEST_IMAGE}\n    labels: { berth.composeId: ${OWNER} }\n`;

describe('the containers of a compose service, found by its appName', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-compose-names-'));
  const file = join(dir, 'compose.yml');
  const stack = uniqueName('berth-stk');
  const project = uniqueName('berth-prj');
  // Another compose service each, whose appName starts with the first's.
  const stacks = [stack, `${stack}-2`];
  const projects = [project, `${project}-2`];
  // Named as the compose tool's newer versions name them (the one here names `<project>_<service>_<n>`).
  const created = [
    { name: `${project}-web-1`, project },
    { name: `${project}-2-web-1`, project: `${project}-2` },
  ];
  before(async () => {
    writeFileSync(file, FILE);
    for (const namespace of stacks) docker('stack', 'deploy', '--detach=true', '-c', file, namespace);
    for (const name of projects) execFileSync('docker-compose', ['-p', name, '-f', file, 'up', '-d'], { stdio: 'ignore' });
    for (const { name, project: label } of created) docker('create', '--name', name, '--label', `com.docker.compose.project=${label}`, '--label', `berth.composeId=${OWNER}`, TEST_IMAGE);
    for (const namespace of stacks) {
      await eventually(`a task container of ${namespace}`, async () =>
        (await engine.listContainers({ label: `com.docker.stack.namespace=${namespace}` })).length > 0, 60_000);
    }
  });
  after(async () => {
    docker('rm', '-f', ...created.map(({ name }) => name));
    for (const name of projects) execFileSync('docker-compose', ['-p', name, '-f', file, 'down'], { stdio: 'ignore' });
    await removeStacks(stacks);
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds a stack\'s task containers by label and by name, not those of a stack named like it', async () => {
    for (const found of [await byLabel(stack), await byName(stack)]) {
      assert.equal(found.length, 1, found.join(', '));
      assert.match(found[0]!, new RegExp(`^${stack}_web\\.1\\.\\w+$`));
    }
    const other = await byLabel(`${stack}-2`);
    assert.equal(other.length, 1);
    assert.match(other[0]!, new RegExp(`^${stack}-2_web\\.1\\.`));
  });

  it('finds a compose project\'s containers by label and by name, in both namings, not those of a project named like it', async () => {
    const ours = [`${project}-web-1`, `${project}_web_1`].sort();
    assert.deepEqual(await byLabel(project), ours);
    assert.deepEqual(await byName(project), ours);
    assert.deepEqual(await byName(`${project}-2`), [`${project}-2-web-1`, `${project}-2_web_1`].sort());
  });

  it('measures a stack\'s and a compose project\'s running containers by their appName, as it finds them', async () => {
    for (const [appName, running] of [[stack, `${stack}_web.1.`], [project, `${project}_web_1`]] as const) {
      const usage = await appMonitoring(appName, ctx);
      assert.deepEqual(usage.containers.map(({ name }) => name.slice(0, running.length)), [running]);
      assert.ok(usage.memory.usedBytes > 0, JSON.stringify(usage));
    }
  });
});
