// The dockerode adapter against the real engine in swarm mode.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { EngineError, type ServiceSpec } from '@berth/shared/ports/container-engine';
import { freePort } from '../support/http.ts';
import { TEST_IMAGE, engine, eventually, httpBody, runningTasks, uniqueName } from '../support/engine.ts';

const created: string[] = [];
after(async () => {
  for (const name of created) await engine.removeService(name);
});

const specOf = (name: string, port: number, image = TEST_IMAGE): ServiceSpec => ({
  Name: name,
  TaskTemplate: { ContainerSpec: { Image: image } },
  Mode: { Replicated: { Replicas: 1 } },
  EndpointSpec: { Ports: [{ Protocol: 'tcp', TargetPort: 8080, PublishedPort: port, PublishMode: 'host' }] },
});

test('acts on a service by its exact name only: its id, or a prefix of it, names no service', async () => {
  const name = uniqueName('berth-owned');
  created.push(name);
  const { id } = await engine.upsertService({ ...specOf(name, await freePort()), Mode: { Replicated: { Replicas: 0 } } });
  // Another project's runtime name that happens to be the service's id, or the start of it.
  for (const other of [id, id.slice(0, 4)]) {
    assert.equal(await engine.inspectService(other), null, other);
    assert.deepEqual(await engine.listTasks(other), [], other);
    assert.equal(await engine.removeService(other), false, other);
    await assert.rejects(engine.updateService(other, (spec) => ({ ...spec, Labels: { touched: 'yes' } })), /not found/);
  }
  const kept = await engine.inspectService(name);
  assert.ok(kept, 'the service is still there');
  assert.equal(kept.spec.Labels?.touched, undefined, 'and untouched');
});

test('a service created, re-deployed with the same spec, scaled to zero and removed', async () => {
  const name = uniqueName('berth-engine');
  const port = await freePort();
  created.push(name);
  const first = await engine.upsertService(specOf(name, port));
  assert.equal(first.spec.Name, name);
  const [task] = await eventually('the first task', async () => (await runningTasks(name)).length === 1 && runningTasks(name));
  assert.equal(await eventually('an answer', () => httpBody(port)), 'berth-test httpd\n');

  const second = await engine.upsertService(specOf(name, port));
  assert.ok(second.version > first.version);
  assert.equal(second.spec.TaskTemplate.ForceUpdate, (first.spec.TaskTemplate.ForceUpdate ?? 0) + 1);
  await eventually('a new task', async () => {
    const running = await runningTasks(name);
    return running.length === 1 && running[0] !== task;
  });

  await engine.updateService(name, (spec) => ({ ...spec, Mode: { Replicated: { Replicas: 0 } } }));
  await eventually('no task running', async () => (await runningTasks(name)).length === 0);
  assert.equal(await engine.removeService(name), true);
  assert.equal(await engine.inspectService(name), null);
  assert.equal(await engine.removeService(name), false);
});

test('a build that fails rejects with the build error from the progress stream', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-build-'));
  try {
    writeFileSync(join(dir, 'Containerfile'), `FROM ${TEST_IMAGE}\nCOPY missing.txt /www/\n`);
    const lines: string[] = [];
    const failure = await engine.buildImage({ contextDir: dir, containerfile: 'Containerfile', tag: `${uniqueName('berth-fail')}:1`, onLine: (line) => lines.push(line) })
      .then(() => null, (error: unknown) => error);
    assert.ok(failure instanceof EngineError);
    assert.match(failure.message, /missing\.txt/);
    assert.ok(lines.some((line) => line.includes('missing.txt')), 'the build output names the fault');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a build that succeeds tags the image, which can be re-tagged and removed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-build-'));
  const tag = `${uniqueName('berth-ok')}:1`;
  try {
    writeFileSync(join(dir, 'index.html'), 'built\n');
    writeFileSync(join(dir, 'Containerfile'), `FROM ${TEST_IMAGE}\nCOPY index.html /www/index.html\n`);
    const lines: string[] = [];
    await engine.buildImage({ contextDir: dir, containerfile: 'Containerfile', tag, onLine: (line) => lines.push(line) });
    assert.ok(lines.some((line) => /Step 2\/2|COPY/.test(line)));
    assert.equal(await engine.imageExists(tag), true);
    const copy = tag.replace(':1', ':2');
    await engine.tagImage(tag, copy);
    assert.deepEqual((await engine.imageTags(tag.split(':')[0]!)).sort(), [tag, copy].sort());
    await engine.removeImage(tag);
    await engine.removeImage(copy);
    assert.equal(await engine.imageExists(tag), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a labelled container stopped (twice) and removed, and a labelled network listed and removed', async () => {
  const name = uniqueName('berth-labelled');
  const label = `berth.test.owner=${name}`;
  const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();
  docker('network', 'create', '--label', label, name);
  const id = docker('run', '-d', '--name', name, '--label', label, '--network', name, TEST_IMAGE);
  try {
    assert.deepEqual((await engine.listContainers({ label })).map((container) => [container.containerId, container.state]), [[id, 'running']]);
    assert.equal(await engine.stopContainer(id), true);
    assert.equal((await engine.listContainers({ label }))[0]?.state, 'exited');
    assert.equal(await engine.stopContainer(id), true, 'a stopped container is stopped already');
    assert.equal(await engine.removeContainer(id), true);
    assert.deepEqual(await engine.listContainers({ label }), []);
    assert.equal(await engine.removeContainer(id), false);
    assert.deepEqual(await engine.listNetworks({ label }), [name]);
    assert.equal(await engine.removeNetwork(name), true);
    assert.deepEqual(await engine.listNetworks({ label }), []);
    assert.equal(await engine.removeNetwork(name), false);
  } finally {
    execFileSync('docker', ['rm', '-f', name], { stdio: 'ignore' });
    try { execFileSync('docker', ['network', 'rm', name], { stdio: 'ignore' }); } catch { /* removed by the test */ }
  }
});

test('nodes, join tokens and the manager address of this swarm', async () => {
  const nodes = await engine.listNodes();
  assert.ok(nodes.some((node) => node.role === 'manager' && node.leader));
  const join = await engine.joinInfo();
  assert.match(join.workerToken, /^SWMTKN-/);
  assert.match(join.managerToken, /^SWMTKN-/);
  assert.match(join.managerAddress, /:\d+$/);
});

test('a name that is no engine name is unknown to every call, and never ends the process', async () => {
  // Each of these once made the engine redirect to a cleaned path, which dockerode followed to a
  // host named by the path and failed outside the request: an uncaught ENOTFOUND ended the process.
  const crossing = ['../../../../etc/passwd', '//etc/passwd', 'a/../../x', 'x/json?all=1#', '.', '..'];
  let uncaught: unknown = null;
  const record = (error: unknown) => { uncaught = error; };
  process.on('uncaughtException', record);
  try {
    for (const name of crossing) {
      assert.equal(await engine.inspectContainer(name), null, name);
      assert.equal(await engine.inspectService(name), null, name);
      assert.equal(await engine.removeService(name), false, name);
      assert.equal(await engine.stopContainer(name), false, name);
      assert.equal(await engine.removeContainer(name), false, name);
      assert.equal(await engine.removeNetwork(name), false, name);
      assert.equal(await engine.imageExists(name), false, name);
      await engine.removeImage(name);
      await assert.rejects(engine.containerStats(name), (error: unknown) => error instanceof EngineError && error.status === 404, name);
      await assert.rejects(engine.drainNode(name), (error: unknown) => error instanceof EngineError && error.status === 404, name);
      await assert.rejects(engine.tagImage(name, 'berth-test/never:here'), (error: unknown) => error instanceof EngineError && error.status === 404, name);
    }
    // Long enough for a followed redirect's host lookup to have failed.
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    process.off('uncaughtException', record);
  }
  assert.equal(uncaught, null);
  // Real names still reach the engine.
  assert.equal(await engine.imageExists(TEST_IMAGE), true);
});
