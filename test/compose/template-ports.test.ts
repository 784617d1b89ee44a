// A template's web entry point is published on a host port (host mode: the ingress mesh does not
// answer on loopback here) that deployTemplate claims for the new service among the ones no record holds.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { publishedPorts } from '@berth/shared/domain/compose/ports';
import { stackSpec } from '@berth/shared/domain/compose/stack';
import { envMap } from '@berth/shared/domain/compose/values';
import { generatedEnv, portVariables, templates, TEMPLATE_PORTS } from '@berth/shared/templates/catalogue';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';

/** What Math.random answers for deployTemplate to try `port` first. */
const pointingAt = (port: number) => (port - TEMPLATE_PORTS.first + 0.5) / (TEMPLATE_PORTS.last - TEMPLATE_PORTS.first + 1);

describe('template ports in the catalogue', () => {
  it('every template publishes its web entry point on a `port` variable', () => {
    const without = templates().filter((template) => portVariables(template).length === 0).map((template) => template.id);
    assert.deepEqual(without, []);
  });

  for (const template of templates().filter((t) => portVariables(t).length > 0)) {
    it(`${template.id}: each port variable is published in host mode, and the deploy's host-port claim sees it`, () => {
      const env = generatedEnv(template);
      const spec = stackSpec(template.compose, { appName: 'tpl-app', env });
      const bindings = spec.services.flatMap((service) => service.EndpointSpec?.Ports ?? []);
      for (const name of portVariables(template)) {
        const port = Number(envMap(env)[name]);
        assert.ok(port >= TEMPLATE_PORTS.first && port <= TEMPLATE_PORTS.last, `${name}=${port}`);
        const binding = bindings.find((published) => published.PublishedPort === port);
        assert.ok(binding, `${template.id} does not publish \${${name}}`);
        assert.equal(binding.PublishMode, 'host');
        assert.ok(publishedPorts(template.compose, env).includes(`${port}/tcp`), `${template.id}: ${port}/tcp is not claimed at deploy`);
      }
    });
  }
});

describe('compose.deployTemplate claims a host port no record holds', () => {
  let berth: TestBerth;
  let projectId: string;
  // One held port for the whole describe, well inside the range.
  const held = TEMPLATE_PORTS.first + 100 + Math.floor(Math.random() * 1000);
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'template-ports' }));
    const { dbgammaId } = await berth.ok('dbgamma.create', { name: 'db', appName: `db-${held}`, projectId, ...databaseCredentials('dbgamma') });
    await berth.ok('dbgamma.saveExternalPort', { dbgammaId, externalPort: held });
  });
  after(() => berth.stop());

  it('passes over a held port and answers a free one in the service\'s env', async () => {
    const free = held + 1;
    // The first candidate is the held port, every later one the free port.
    let calls = 0;
    const random = mock.method(Math, 'random', () => pointingAt(calls++ === 0 ? held : free));
    try {
      const compose = await berth.ok('compose.deployTemplate', { projectId, id: 'grafana' });
      assert.equal(envMap(compose.env).PORT, String(free));
      assert.ok(calls >= 2, 'the held port was never tried');
      assert.deepEqual(publishedPorts(compose.composeFile, compose.env), [`${free}/tcp`]);
    } finally {
      random.mock.restore();
    }
  });

  it('holds the port from the creation: a database cannot take it before any deploy, and the delete lets it go', async () => {
    const { composeId, env } = await berth.ok('compose.deployTemplate', { projectId, id: 'grafana' });
    const port = Number(envMap(env).PORT);
    const { dbgammaId } = await berth.ok('dbgamma.create', { name: 'late', appName: `late-${port}`, projectId, ...databaseCredentials('dbgamma') });
    await berth.refused('dbgamma.saveExternalPort', { dbgammaId, externalPort: port }, 409, 'externalPort');
    await berth.ok('compose.delete', { composeId });
    await berth.ok('dbgamma.saveExternalPort', { dbgammaId, externalPort: port });
  });

  it('refuses a project that does not exist, naming projectId, and claims nothing', async () => {
    await berth.refused('compose.deployTemplate', { projectId: 'no-such-project', id: 'grafana' }, 404, 'projectId');
  });

  it('refuses, naming the template, when every port it tries is held, and creates nothing', async () => {
    const random = mock.method(Math, 'random', () => pointingAt(held));
    const before = (await berth.ok('project.one', { projectId })).compose.length;
    try {
      await berth.refused('compose.deployTemplate', { projectId, id: 'grafana' }, 409, 'id');
    } finally {
      random.mock.restore();
    }
    assert.equal((await berth.ok('project.one', { projectId })).compose.length, before);
  });
});
