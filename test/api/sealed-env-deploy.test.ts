// A sealed env still reaches what runs: the deployer opens it for an application's container and a
// database's service (a compose file's ${VARIABLES} are covered by test/compose/stack.test.ts and
// container-compose.test.ts, whose env now goes through the log sealed too). An env recorded in
// clear before it was sealed deploys as it is.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Context } from '@berth/command-api/context';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, engine, removeDeployed } from '../support/engine.ts';
import { DATABASE_IMAGE, removeService } from '../support/database-services.ts';
import { until } from '../support/deployer.ts';

const KEY = `sealed-env-key-${Math.random().toString(36).slice(2)}`;

describe('a sealed env, deployed', () => {
  let berth: TestBerth;
  let projectId: string;
  const apps: string[] = [];
  const databases: string[] = [];
  before(async () => {
    // A database's deploy answers once it ended: waited for here.
    berth = await startBerthWithReactors({ config: { actionWaitMs: 120_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'sealed env deploys' }));
  });
  after(async () => {
    await removeDeployed(apps);
    for (const name of databases) await removeService(name);
    await berth.stop();
  });

  /** The environment the service's running container was started with. */
  async function containerEnv(appName: string): Promise<string[]> {
    const container = (await engine.listContainers({ label: `com.docker.swarm.service.name=${appName}` })).find((found) => found.state === 'running');
    assert.ok(container, `${appName} runs no container`);
    const inspected = await engine.inspectContainer(container.containerId) as { Config?: { Env?: string[] } } | null;
    return inspected?.Config?.Env ?? [];
  }

  async function deployedApplication(name: string, saveEnv: (applicationId: string) => Promise<void>): Promise<string> {
    const { applicationId, appName } = await berth.ok('application.create', { name, projectId });
    apps.push(appName);
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: TEST_IMAGE });
    await saveEnv(applicationId);
    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    const deployment = await until(berth, deploymentId, 'done', 90_000);
    assert.equal(deployment.status, 'done', deployment.reason);
    return appName;
  }

  it('gives an application container the variables of its sealed env', async () => {
    const appName = await deployedApplication('keyed', async (applicationId) => {
      await berth.ok('application.saveEnvironment', { applicationId, env: `API_KEY=${KEY}\n# a comment\nMODE="sealed test"` });
    });
    assert.ok(!(await berth.eventLog()).includes(KEY), 'the env is in the log in clear');
    const spec = (await engine.inspectService(appName))!.spec;
    assert.deepEqual(spec.TaskTemplate.ContainerSpec.Env, [`API_KEY=${KEY}`, 'MODE=sealed test']);
    const env = await containerEnv(appName);
    assert.ok(env.includes(`API_KEY=${KEY}`) && env.includes('MODE=sealed test'), `the container's env: ${env.join(' ')}`);
  });

  it('deploys an env recorded in clear before it was sealed as it is', async () => {
    const appName = await deployedApplication('older', async (applicationId) => {
      const ctx = new Context(berth.berth.infrastructure, null, 'older-event');
      await ctx.execute(applicationAggregate, applicationId, { type: 'SaveEnvironment', data: { applicationId, env: 'LEGACY=in clear' } });
      await berth.berth.infrastructure.readStore.waitFor(ctx.position, 5_000);
    });
    assert.deepEqual((await engine.inspectService(appName))!.spec.TaskTemplate.ContainerSpec.Env, ['LEGACY=in clear']);
  });

  it('gives a database service the variables of its sealed env beside its engine contract', async () => {
    const db = await berth.ok('dbepsilon.create', {
      name: 'kv', appName: 'kv', projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: 'Sealed-Env-Pass-7',
    });
    databases.push(db.appName);
    await berth.ok('dbepsilon.saveEnvironment', { dbepsilonId: db.dbepsilonId, env: `EXTRA_KEY=${KEY}` });
    await berth.ok('dbepsilon.deploy', { dbepsilonId: db.dbepsilonId });
    const env = (await engine.inspectService(db.appName))!.spec.TaskTemplate.ContainerSpec.Env ?? [];
    assert.ok(env.includes(`EXTRA_KEY=${KEY}`), `the service's env: ${env.filter((entry) => !entry.startsWith('REDIS_PASSWORD=')).join(' ')}`);
    assert.ok(env.includes('REDIS_PASSWORD=Sealed-Env-Pass-7'), 'the engine contract is missing');
  });
});
