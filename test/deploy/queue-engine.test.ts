// Issue tests 3 and 9 on the real engine: deploys of one service run one after another in order,
// two services overlap, cleanQueues cancels the queued ones, deployment.cancel stops a real build
// (the service keeps serving its previous version), a stop cancels the deploys asked before it and
// one asked while it stops runs after it, and `deployment.logs?follow=true` streams a
// real build's lines while it runs. Builds are made slow with `RUN sleep` steps unique to the run
// (so the engine's build cache cannot skip them).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { eventually, httpBody, runningTasks } from '../support/engine.ts';
import { GOOD_CONTAINERFILE } from '../support/git-repo.ts';
import { gitApps } from '../support/git-apps.ts';
import { freePort } from '../support/http.ts';

interface Record { deploymentId: string; status: string; startedAt: string | null; finishedAt: string | null; reason: string | null }

describe('the deployment queue on the real engine', () => {
  const apps = gitApps({ deployConcurrency: 2, taskStartTimeoutMs: 20_000, actionWaitMs: 30_000 });
  const { slowBuild, deploy, building, nonce } = apps;
  const app = async (name: string, port?: number) => (await apps.app(name, port)).applicationId;
  const record = (deploymentId: string): Promise<Record> => apps.berth.ok('deployment.one', { deploymentId });
  const until = (deploymentId: string, statuses: string[], ms = 90_000) => eventually(`deployment ${deploymentId} to be ${statuses.join(' or ')}`,
    async () => { const found = await record(deploymentId); return statuses.includes(found.status) ? found : null; }, ms);

  /** An application serving version 1 on a port, then building for 60 s with `waiting` deploys queued behind. */
  async function buildingAfterVersion1(name: string, waiting: number) {
    const port = await freePort();
    const applicationId = await app(name, port);
    assert.equal((await until(await deploy(applicationId), ['done', 'error'])).status, 'done');
    await eventually('version 1 served', async () => (await httpBody(port)) === 'version 1\n');
    await apps.berth.ok('application.update', { applicationId, containerfile: slowBuild(60) });
    const running = await deploy(applicationId);
    const queued: string[] = [];
    for (let i = 0; i < waiting; i++) queued.push(await deploy(applicationId));
    await building(running);
    return { port, applicationId, running, queued };
  }

  it('runs three deploys of one service one after another in order, while a second service deploys beside them', async () => {
    const [a, b] = [await app('serial'), await app('beside')];
    const ids = [await deploy(a), await deploy(a), await deploy(a)];
    const other = await deploy(b);
    const done = await Promise.all([...ids, other].map((id) => until(id, ['done', 'error', 'cancelled'])));
    assert.deepEqual(done.map((d) => d.status), ['done', 'done', 'done', 'done'], JSON.stringify(done));
    const [first, second, third, beside] = done as [Record, Record, Record, Record];
    assert.ok(second.startedAt! >= first.finishedAt! && third.startedAt! >= second.finishedAt!, `deployments of one service overlapped: ${JSON.stringify(done)}`);
    assert.ok(beside.startedAt! < first.finishedAt! && first.startedAt! < beside.finishedAt!, `the two services did not deploy at once: ${JSON.stringify(done)}`);
  });

  it('cleanQueues cancels the queued deploys; deployment.cancel stops a running build and the previous version still serves', async () => {
    const { port, applicationId, running, queued } = await buildingAfterVersion1('cancelled', 2);
    await apps.berth.ok('application.cleanQueues', { applicationId });
    for (const id of queued) assert.equal((await until(id, ['cancelled'], 10_000)).reason, 'cancelled by request');
    assert.equal((await record(running)).status, 'running');
    const asked = Date.now();
    assert.equal((await apps.berth.ok('deployment.cancel', { deploymentId: running })).status, 'cancelled');
    assert.ok(Date.now() - asked < 30_000, 'the build was not stopped: cancel waited for it');
    const { log } = await apps.berth.ok('deployment.logs', { deploymentId: running });
    assert.match(log, /Cancelled: the service stays on its previous version/);
    assert.ok(!/tick 60/.test(log), 'the build ran to its end');
    assert.equal(await httpBody(port), 'version 1\n');
    const status = await apps.berth.call('deployment.cancel', { deploymentId: running });
    assert.equal(status.status, 409);
  });

  it('stop cancels the deploys asked before it, its running build stopped; a deploy asked while it stops runs after it, and the service runs', async () => {
    const { port, applicationId, running, queued } = await buildingAfterVersion1('stopped', 1);

    const asked = Date.now();
    const stopping = apps.berth.ok('application.stop', { applicationId });
    // Asked while the stop is under way: it runs once the stop is done, not in the middle of it.
    assert.equal((await until(running, ['cancelled', 'done', 'error'], 30_000)).status, 'cancelled');
    await apps.berth.ok('application.update', { applicationId, containerfile: GOOD_CONTAINERFILE });
    const later = await deploy(applicationId);
    await stopping;
    assert.ok(Date.now() - asked < 30_000, 'the stop waited for the build to end');
    assert.equal((await record(queued[0]!)).status, 'cancelled');
    assert.ok(!/tick 60/.test((await apps.berth.ok('deployment.logs', { deploymentId: running })).log), 'the build ran to its end');

    assert.equal((await until(later, ['done', 'error', 'cancelled'])).status, 'done');
    const { eventStore } = apps.berth.berth.infrastructure;
    const stopped = (await eventStore.readStream(`application-${applicationId}`)).events
      .find((event) => event.type === 'ApplicationActionSucceeded' && (event.data as { action: string }).action === 'stop');
    const started = (await eventStore.readStream(`deployment-${later}`)).events.find((event) => event.type === 'DeploymentStarted');
    assert.ok(stopped && started && stopped.position < started.position, 'the later deploy started before the stop was done');
    await eventually('the status to follow the later deploy', async () => (await apps.berth.ok('application.one', { applicationId })).applicationStatus === 'done');
    await eventually('version 1 served again', async () => (await httpBody(port)) === 'version 1\n');
  });

  it('stop during a first deploy cancels it and answers idle: nothing was on the engine, and nothing runs', async () => {
    const applicationId = await app('first-stopped');
    const { appName } = await apps.berth.ok('application.one', { applicationId });
    await apps.berth.ok('application.update', { applicationId, containerfile: slowBuild(30) });
    const first = await deploy(applicationId);
    await building(first);
    assert.equal((await apps.berth.ok('application.stop', { applicationId })).applicationStatus, 'idle');
    assert.equal((await record(first)).status, 'cancelled');
    assert.deepEqual(await runningTasks(appName), []);
  });

  it('follows a real build\'s log as server-sent events while it runs, ending when the deployment ends', async () => {
    const applicationId = await app('followed');
    // A line with carriage returns, which end a line of an event stream too: it must not forge an event.
    const forging = `RUN printf 'forged\\revent: end\\rdata: {"status":"forged"}\\n'\n`;
    await apps.berth.ok('application.update', { applicationId, containerfile: `${slowBuild(4)}${forging}` });
    const deploymentId = await deploy(applicationId);
    await apps.berth.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = apps.berth.app.server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/api/deployment.logs?deploymentId=${deploymentId}&follow=true`, {
      headers: { authorization: `Bearer ${apps.berth.token}` },
    });
    assert.equal(response.status, 200);
    assert.match(String(response.headers.get('content-type')), /text\/event-stream/);
    const decoder = new TextDecoder();
    let text = '';
    let statusAtFirstTick: string | null = null;
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      if (statusAtFirstTick === null && text.includes(`tick 1 ${nonce}`)) statusAtFirstTick = (await record(deploymentId)).status;
    }
    assert.equal(statusAtFirstTick, 'running', 'the build\'s first line arrived only after the deployment ended');
    assert.match(text, new RegExp(`event: line\\ndata: [^\\n]*tick 4 ${nonce}`));
    assert.match(text, /event: end\ndata: \{"status":"done"/);
    const events = text.split(/\r\n|\r|\n/).filter((line) => line.startsWith('event: ')).map((line) => line.slice('event: '.length));
    assert.deepEqual(events.filter((event) => event !== 'line'), ['end'], 'a log line forged an event');
    assert.match(text, /event: line\ndata: forged\n/);
  });
});
