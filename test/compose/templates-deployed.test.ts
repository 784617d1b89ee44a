// Issue 8 test 4 (the real half): small templates deployed from the catalogue as stacks on the
// real engine. No image can be pulled here, so each image a template names is a locally built test
// image tagged under that name for the test (and untagged after): busybox httpd for the web services,
// the PostgreSQL-like test image for umami's postgres (started with the template's generated
// password, on the template's internal network and volume). The template's compose file,
// networks, volumes, replicas and generated environment are deployed exactly as the catalogue has them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { stackSpec } from '@berth/shared/domain/compose/stack';
import { envMap } from '@berth/shared/domain/compose/values';
import { portVariables, templateById } from '@berth/shared/templates/catalogue';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, engine, eventually, httpBody, runningTasks } from '../support/engine.ts';
import {removeStacks } from '../support/stacks.ts';
import { deploymentRecordsOf, ended } from '../support/deployments.ts';

const TEMPLATES = ['whoami', 'nginx', 'adminer', 'umami'];
/** The locally built image standing in for each image a template names: the PostgreSQL-like test image for postgres. */
const standIn = (image: string) => (image.startsWith('postgres:') ? 'berth-test/dbgamma:current' : TEST_IMAGE);
/** The port TEST_IMAGE serves on (test/support/engine.ts): a template publishing this container port answers through its stand-in. */
const STAND_IN_PORT = 8080;

describe('templates deployed for real', () => {
  let berth: TestBerth;
  let projectId: string;
  const namespaces: string[] = [];
  const tagged: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 30_000, taskStartTimeoutMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'templates' }));
    for (const id of TEMPLATES) {
      for (const service of stackSpec(templateById(id)!.compose, { appName: 'x' }).services) {
        const image = service.TaskTemplate.ContainerSpec.Image;
        if (await engine.imageExists(image)) continue; // never untag what the machine had (or another run tagged)
        await engine.tagImage(standIn(image), image);
        tagged.push(image);
      }
    }
  });
  after(async () => {
    try {
      await removeStacks(namespaces);
    } finally {
      for (const image of tagged) await engine.removeImage(image);
      await berth.stop();
    }
  });

  for (const id of TEMPLATES) {
    it(`${id}: deployTemplate, then deploy runs every service of it with its replicas; delete removes it`, async () => {
      const compose = await berth.ok('compose.deployTemplate', { projectId, id });
      namespaces.push(compose.appName);
      const queued = await berth.ok('compose.deploy', { composeId: compose.composeId });
      const deployment = await ended(berth, queued.deploymentId);
      assert.equal(deployment.status, 'done', deployment.reason);
      const spec = stackSpec(compose.composeFile, { appName: compose.appName, env: compose.env });
      for (const service of spec.services) {
        const replicas = 'Replicated' in service.Mode ? service.Mode.Replicated.Replicas : 1;
        assert.equal((await runningTasks(service.Name)).length, replicas, service.Name);
      }
      // The web entry point is published on the node, on the free port deployTemplate chose, and held for the service.
      const [portName] = portVariables(templateById(id)!);
      assert.ok(portName, `${id} has no port variable`);
      const port = Number(envMap(compose.env)[portName]);
      const published = (await Promise.all(spec.services.map((service) => engine.inspectService(service.Name))))
        .flatMap((info) => info?.spec.EndpointSpec?.Ports ?? []).filter((binding) => binding.PublishedPort === port);
      assert.equal(published.length, 1, `${id} publishes ${port} once`);
      assert.equal(published[0]!.PublishMode, 'host');
      const reservation = await berth.berth.infrastructure.eventStore.readStream(`reservation-hostPort:${port}/tcp`);
      assert.deepEqual(reservation.events.map((event) => event.type), ['NameReserved']);
      if (published[0]!.TargetPort === STAND_IN_PORT) {
        assert.ok(await eventually(`${id} to answer on the host port ${port}`, () => httpBody(port), 30_000));
      }
      if (id === 'umami') {
        // The database took the template's generated password: a password login with it answers.
        const db = (await engine.listTasks(`${compose.appName}_db`)).find((task) => task.state === 'running')!;
        const password = envMap(compose.env).DB_PASSWORD!;
        const answer = await eventually('a login to the database', async () => {
          try {
            return execFileSync('docker', ['exec', '-e', `PGPASSWORD=${password}`, db.containerId!, 'psql', '-h', '127.0.0.1', '-U', 'umami', '-d', 'umami', '-tAc', 'select 42'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
          } catch {
            return null;
          }
        }, 30_000);
        assert.equal(answer, '42');
      }
      await berth.ok('compose.delete', { composeId: compose.composeId });
      // Removed once its runtime parts are gone: services, then its deployment records.
      await eventually('the stack to go', async () => {
        for (const service of spec.services) if (await engine.inspectService(service.Name)) return false;
        return (await deploymentRecordsOf(berth, 'composeId', compose.composeId)).length === 0;
      }, 60_000);
      // Its host port is free again for the next service.
      const released = await berth.berth.infrastructure.eventStore.readStream(`reservation-hostPort:${port}/tcp`);
      assert.equal(released.events.at(-1)?.type, 'NameReleased');
    });
  }
});
