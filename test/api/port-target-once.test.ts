// The engine keys an application's host-mode bindings by the container's port: two ports of one
// application with the same targetPort and protocol published only one, the deployment ended done,
// and the other host port stayed claimed though nothing published it. Refused, decided by the log.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { oneWinner, times } from '../support/one-winner.ts';

let berth: TestBerth;
let projectId: string;
before(async () => {
  berth = await startBerth();
  projectId = (await berth.ok('project.create', { name: 'targets' })).projectId;
});
after(() => berth.stop());

const application = async (): Promise<string> => (await berth.ok('application.create', { name: 'web', projectId })).applicationId;

it('refuses a second port of one application with the same targetPort and protocol, naming targetPort', async () => {
  const applicationId = await application();
  await berth.ok('port.create', { applicationId, publishedPort: 43810, targetPort: 80 });
  await berth.refused('port.create', { applicationId, publishedPort: 43811, targetPort: 80 }, 409, 'targetPort');
  // Another protocol is another binding; another application another service.
  const udp = await berth.ok('port.create', { applicationId, publishedPort: 43811, targetPort: 80, protocol: 'udp' });
  await berth.refused('port.update', { portId: udp.portId, publishedPort: 43811, targetPort: 80, protocol: 'tcp' }, 409, 'targetPort');
  await berth.ok('port.create', { applicationId: await application(), publishedPort: 43812, targetPort: 80 });
});

it('lets a port keep its targetPort, and lets another take it once the port moved off it or went', async () => {
  const applicationId = await application();
  const first = await berth.ok('port.create', { applicationId, publishedPort: 43820, targetPort: 80 });
  assert.equal((await berth.ok('port.update', { portId: first.portId, publishedPort: 43821, targetPort: 80 })).publishedPort, 43821);
  await berth.ok('port.update', { portId: first.portId, publishedPort: 43821, targetPort: 81 });
  const second = await berth.ok('port.create', { applicationId, publishedPort: 43822, targetPort: 80 });
  await berth.ok('port.delete', { portId: second.portId });
  await berth.ok('port.create', { applicationId, publishedPort: 43823, targetPort: 80 });
});

it('of ports created at once with one targetPort, one wins and the others answer 409 naming targetPort', async () => {
  const applicationId = await application();
  const answers = await times(8, (i) => berth.call('port.create', { applicationId, publishedPort: 43830 + i, targetPort: 8080 }));
  oneWinner(answers, 'targetPort');
  assert.equal((await berth.ok('application.one', { applicationId })).ports.length, 1);
});

it('of ports moved at once onto one targetPort, one wins', async () => {
  const applicationId = await application();
  const ports = await times(6, (i) => berth.ok('port.create', { applicationId, publishedPort: 43840 + i, targetPort: 9000 + i }));
  const answers = await Promise.all(ports.map((port: { portId: string; publishedPort: number }) =>
    berth.call('port.update', { portId: port.portId, publishedPort: port.publishedPort, targetPort: 7000 })));
  oneWinner(answers, 'targetPort');
  const targets = (await berth.ok('application.one', { applicationId })).ports.map((port: { targetPort: number }) => port.targetPort);
  assert.equal(targets.filter((target: number) => target === 7000).length, 1);
});
