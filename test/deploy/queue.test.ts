// The deployment queue with the engine work replaced by a double: order per service, parallel
// services, cleanQueues, cancel, the status machine, the kept count and the logs.
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

  it('runs three deploys of one service one after another in order, while another service deploys beside them', async () => {
    const a = await newApp('serial');
    const b = await newApp('beside');
    const ids = [await deploy(a), await deploy(a), await deploy(a)];
    const other = await deploy(b);
    const first = await it_.double.runs(ids[0]!);
    const parallel = await it_.double.runs(other);
    assert.equal(it_.double.running.has(ids[1]!), false, 'a second deployment of the service started while the first ran');
    assert.equal((await it_.berth.ok('deployment.one', { deploymentId: ids[1] })).status, 'queued');
    first.open();
    (await it_.double.runs(ids[1]!)).open();
    (await it_.double.runs(ids[2]!)).open();
    parallel.open();
    for (const id of [...ids, other]) await until(it_.berth, id, 'done');
    const order = it_.double.started.filter((id) => ids.includes(id));
    assert.deepEqual(order, ids);
  });

  it('cleanQueues cancels the queued deployments of the service, not the running one', async () => {
    const applicationId = await newApp('cleaned');
    const [running, q1, q2] = [await deploy(applicationId), await deploy(applicationId), await deploy(applicationId)];
    const gate = await it_.double.runs(running);
    const answer = await it_.berth.ok('application.cleanQueues', { applicationId });
    assert.equal(answer.applicationId, applicationId);
    for (const id of [q1, q2]) assert.equal((await until(it_.berth, id, 'cancelled')).reason, 'cancelled by request');
    assert.equal((await it_.berth.ok('deployment.one', { deploymentId: running })).status, 'running');
    gate.open();
    await until(it_.berth, running, 'done');
    assert.ok(!it_.double.started.includes(q1) && !it_.double.started.includes(q2), 'a cancelled deployment ran');
  });

  it('deployment.cancel stops a running deployment: its work is aborted and the service keeps its previous status', async () => {
    const applicationId = await newApp('cancelled');
    (await it_.double.runs(await deploy(applicationId))).open();
    await new Promise((r) => setTimeout(r, 100));
    const second = await deploy(applicationId);
    await it_.double.runs(second);
    await until(it_.berth, second, 'running');
    const answer = await it_.berth.ok('deployment.cancel', { deploymentId: second });
    assert.equal(answer.status, 'cancelled');
    assert.equal(it_.double.running.has(second), false);
    const deadline = Date.now() + 5000;
    while ((await status(applicationId)) !== 'done' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await status(applicationId), 'done');
    // An ended deployment cannot be cancelled again.
    await refused('deployment.cancel', { deploymentId: second }, 409, 'deploymentId');
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

  it('follows a deployment log as server-sent events while it runs, ending when the deployment ends', async () => {
    const applicationId = await newApp('followed');
    const id = await deploy(applicationId);
    const gate = await it_.double.runs(id);
    const response = it_.berth.app.inject({
      method: 'GET', url: `/api/deployment.logs?deploymentId=${id}&follow=true`, headers: { authorization: `Bearer ${it_.berth.token}` },
    });
    await new Promise((r) => setTimeout(r, 300));
    gate.work.log('step 2 of 2');
    await new Promise((r) => setTimeout(r, 300));
    gate.open();
    const answer = await response;
    assert.equal(answer.statusCode, 200);
    assert.match(String(answer.headers['content-type']), /text\/event-stream/);
    const lines = answer.body.split('\n\n').filter((frame) => frame.startsWith('event: line')).map((frame) => frame.split('data: ')[1]);
    assert.ok(lines.some((line) => line?.startsWith('building followed')), answer.body);
    assert.ok(lines.includes('step 2 of 2'), answer.body);
    assert.match(answer.body, /event: end\ndata: \{"status":"done"/);
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
    assert.match(refused.body.message, /Could not stop .*: no such service/);
    it_.double.failNextAction = 'tasks did not start';
    assert.equal((await it_.berth.call('application.reload', { applicationId, appName })).status, 409);
    assert.equal((await it_.berth.ok('application.one', { applicationId })).applicationStatus, 'error');
  });

  it('refuses to deploy an application without a source, naming the field, and queues nothing', async () => {
    const { projectId } = await it_.berth.ok('project.create', { name: 'sourceless' });
    const { applicationId } = await it_.berth.ok('application.create', { name: 'bare', projectId });
    await it_.berth.refused('application.deploy', { applicationId }, 400, 'repository');
    await it_.berth.refused('application.deploy', { applicationId: 'nope' }, 404, 'applicationId');
    await it_.berth.refused('deployment.all', {}, 400, 'applicationId');
  });
});
