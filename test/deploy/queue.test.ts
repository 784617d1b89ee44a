// The deployment queue with the engine work replaced by a double that the test opens or fails at
// will: the status machine step by step, failure reasons, masked secrets, rollback refusals, the
// kept count, and failing service actions. Order, overlap, cleanQueues, cancel and followed logs
// run on the real engine in queue-engine.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDeployingBerth, until } from '../support/deployer.ts';

type Running = Awaited<ReturnType<typeof startDeployingBerth>>;

describe('deployment queue (engine work replaced by a double)', () => {
  let it_: Running;
  before(async () => { it_ = await startDeployingBerth({ config: { deployConcurrency: 2, keepDeployments: 3 } }); });
  after(() => it_.stop());

  const newApp = async (name: string) => {
    const { projectId } = await it_.berth.ok('project.create', { name: `p-${name}` });
    const { applicationId } = await it_.berth.ok('application.create', { name, projectId });
    await it_.berth.ok('application.saveContainerProvider', { applicationId, containerImage: `${name}:1`, username: 'bot', password: 'registry-pass-123' });
    return applicationId as string;
  };
  const deploy = async (applicationId: string) => (await it_.berth.ok('application.deploy', { applicationId })).deploymentId as string;
  /** A refusal naming `field`: the log is not compared, the reactors append beside it. */
  const refused = async (operation: string, input: Record<string, unknown>, code: number, field: string) => {
    const answer = await it_.berth.call(operation, input);
    assert.equal(answer.status, code, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.issues.map((issue: { path: string }) => issue.path), [field]);
  };
  const status = async (applicationId: string) => (await it_.berth.ok('application.one', { applicationId })).applicationStatus;

  it('answers deploy at once with the queued deployment, then runs it: queued → running → done, the service running → done', async () => {
    const applicationId = await newApp('first');
    const answer = await it_.berth.ok('application.deploy', { applicationId });
    assert.equal(answer.status, 'queued');
    assert.equal(answer.kind, 'deploy');
    assert.equal(answer.trigger, 'account');
    const gate = await it_.double.runs(answer.deploymentId);
    assert.equal((await until(it_.berth, answer.deploymentId, 'running')).startedAt !== null, true);
    assert.equal(await status(applicationId), 'running');
    gate.open();
    const done = await until(it_.berth, answer.deploymentId, 'done');
    assert.equal(done.image, `${gate.work.application.appName}:${answer.deploymentId}`);
    assert.equal(done.revision, 'abc123');
    assert.ok(done.finishedAt);
    const deadline = Date.now() + 5000;
    while ((await status(applicationId)) !== 'done' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await status(applicationId), 'done');
    const one = await it_.berth.ok('application.one', { applicationId });
    assert.deepEqual(one.deployments.map((d: { deploymentId: string }) => d.deploymentId), [answer.deploymentId]);
  });

  it('a failed deployment ends in error with its reason in the record and the log; the service status is error', async () => {
    const applicationId = await newApp('failing');
    const id = await deploy(applicationId);
    (await it_.double.runs(id)).fail('the build failed: step 3 exited 1');
    const failed = await until(it_.berth, id, 'error');
    assert.equal(failed.reason, 'the build failed: step 3 exited 1');
    const { log } = await it_.berth.ok('deployment.logs', { deploymentId: id });
    assert.match(log, /Failed: the build failed: step 3 exited 1/);
    const deadline = Date.now() + 5000;
    while ((await status(applicationId)) !== 'error' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await status(applicationId), 'error');
  });

  it('never writes a secret to a deployment log', async () => {
    const applicationId = await newApp('secretive');
    const id = await deploy(applicationId);
    (await it_.double.runs(id)).open();
    await until(it_.berth, id, 'done');
    const { log } = await it_.berth.ok('deployment.logs', { deploymentId: id });
    assert.match(log, /login as bot with \*{8}/);
    assert.ok(!log.includes('registry-pass-123'));
  });

  it('rolls back to an earlier successful deployment with its image and no build; refuses a failed one or another service\'s', async () => {
    const applicationId = await newApp('rolled');
    const good = await deploy(applicationId);
    (await it_.double.runs(good)).open();
    const { image } = await until(it_.berth, good, 'done');
    const bad = await deploy(applicationId);
    (await it_.double.runs(bad)).fail('broken');
    await until(it_.berth, bad, 'error');
    await refused('deployment.rollback', { deploymentId: bad }, 400, 'deploymentId');
    const stranger = await newApp('stranger');
    await refused('deployment.rollback', { deploymentId: good, applicationId: stranger }, 400, 'deploymentId');
    const rollback = await it_.berth.ok('deployment.rollback', { deploymentId: good });
    assert.equal(rollback.kind, 'rollback');
    assert.equal(rollback.rollbackOf, good);
    const gate = await it_.double.runs(rollback.deploymentId);
    assert.equal(gate.work.kind, 'rollback');
    assert.equal(gate.work.image, image);
    gate.open();
    assert.equal((await until(it_.berth, rollback.deploymentId, 'done')).image, image);
    await refused('deployment.rollback', { deploymentId: 'nope' }, 404, 'deploymentId');
  });

  it('keeps only the latest deployments of a service, with their logs', async () => {
    const applicationId = await newApp('pruned');
    it_.double.autoFinish = true;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await deploy(applicationId));
      await until(it_.berth, ids[i]!, 'done');
    }
    it_.double.autoFinish = false;
    const deadline = Date.now() + 5000;
    let kept: string[] = [];
    while (Date.now() < deadline) {
      kept = (await it_.berth.ok('deployment.all', { applicationId })).map((d: { deploymentId: string }) => d.deploymentId);
      if (kept.length === 3) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(kept.sort(), ids.slice(2).sort());
    await refused('deployment.logs', { deploymentId: ids[0] }, 404, 'deploymentId');
  });

  it('start, stop and reload answer once the engine did it, with the status the machine says; a refusal is a clear 409', async () => {
    const applicationId = await newApp('acted');
    const appName = (await it_.berth.ok('application.one', { applicationId })).appName;
    assert.equal((await it_.berth.ok('application.stop', { applicationId })).applicationStatus, 'idle');
    assert.equal((await it_.berth.ok('application.start', { applicationId })).applicationStatus, 'done');
    assert.equal((await it_.berth.ok('application.reload', { applicationId, appName })).applicationStatus, 'done');
    assert.deepEqual(it_.double.actions.filter((a) => a.endsWith(appName)), [`stop ${appName}`, `start ${appName}`, `reload ${appName}`]);
    it_.double.failNextAction = 'no such service';
    const refused = await it_.berth.call('application.stop', { applicationId });
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /^applicationId names .*, which could not stop: no such service/);
    it_.double.failNextAction = 'tasks did not start';
    assert.equal((await it_.berth.call('application.reload', { applicationId, appName })).status, 409);
    assert.equal((await it_.berth.ok('application.one', { applicationId })).applicationStatus, 'error');
  });

  it('starts a deployment waiting behind an action from the status the action left, its outcome in the log before the start', async () => {
    const applicationId = await newApp('after-reload');
    const appName = (await it_.berth.ok('application.one', { applicationId })).appName;
    const running = await deploy(applicationId);
    await it_.double.runs(running);
    // A reload waits behind the running deployment, and a deployment behind the reload.
    const reloading = it_.berth.call('application.reload', { applicationId, appName });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const next = await deploy(applicationId);
    it_.double.failNextAction = 'tasks did not restart';
    (await it_.double.runs(running)).open();
    assert.equal((await reloading).status, 409);
    await it_.double.runs(next);
    const { events } = await it_.berth.berth.infrastructure.eventStore.readStream(`application-${applicationId}`);
    const failed = events.find((event) => event.type === 'ApplicationActionFailed')!;
    const started = (await it_.berth.berth.infrastructure.eventStore.readStream(`deployment-${next}`)).events.find((event) => event.type === 'DeploymentStarted')!;
    assert.ok(failed.position < started.position, 'the reload\'s outcome comes before the next deployment starts');
    assert.equal((started.data as { statusBefore: string }).statusBefore, 'error');
    (await it_.double.runs(next)).open();
    await until(it_.berth, next, 'done');
  });

  it('refuses to deploy an application without a source, naming the field, and queues nothing', async () => {
    const { projectId } = await it_.berth.ok('project.create', { name: 'sourceless' });
    const { applicationId } = await it_.berth.ok('application.create', { name: 'bare', projectId });
    await it_.berth.refused('application.deploy', { applicationId }, 400, 'repository');
    await it_.berth.refused('application.deploy', { applicationId: 'nope' }, 404, 'applicationId');
    await it_.berth.refused('deployment.all', {}, 400, 'applicationId');
  });

  it('lists no deployments of a service that does not exist, or no longer does: 404 naming the field', async () => {
    const { projectId } = await it_.berth.ok('project.create', { name: 'listed' });
    const { applicationId } = await it_.berth.ok('application.create', { name: 'listed', projectId });
    const { composeId } = await it_.berth.ok('compose.create', { name: 'listed', projectId });
    const { dbepsilonId } = await it_.berth.ok('dbepsilon.create', { name: 'listed', appName: 'listed', projectId, databasePassword: 'a password' });
    for (const [field, id] of [['applicationId', applicationId], ['composeId', composeId], ['databaseId', dbepsilonId]]) {
      assert.deepEqual(await it_.berth.ok('deployment.all', { [field]: id }), [], `${field} of a service never deployed`);
      await it_.berth.refused('deployment.all', { [field]: 'no-such-service' }, 404, field);
    }
    await it_.berth.ok('application.delete', { applicationId });
    await it_.berth.refused('deployment.all', { applicationId }, 404, 'applicationId');
  });
});
