import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { composeFileProblem, serviceNames } from '@berth/shared/domain/compose/compose-file';
import { randomizeComposeFile } from '@berth/shared/domain/compose/randomize';
import { stackSpec } from '@berth/shared/domain/compose/stack';
import { envMap } from '@berth/shared/domain/compose/values';
import { generatedEnv, templates } from '@berth/shared/templates/catalogue';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('the template catalogue', () => {
  it('holds at least 25 templates, each with its description, links, tags and version', () => {
    assert.ok(templates().length >= 25, `${templates().length} templates`);
    assert.equal(new Set(templates().map((t) => t.id)).size, templates().length, 'template ids are unique');
    for (const t of templates()) {
      assert.match(t.id, /^[a-z0-9-]+$/);
      for (const field of [t.name, t.version, t.description, t.links.github, t.links.website, t.links.docs]) assert.ok(field, `${t.id}: a field is empty`);
      assert.ok(t.tags.length > 0, `${t.id} has no tags`);
    }
  });

  for (const template of templates()) {
    it(`${template.id}: parses, lists its services, stays valid randomized, and builds its stack specs`, () => {
      assert.equal(composeFileProblem(template.compose), null);
      const services = serviceNames(template.compose);
      assert.ok(services.length > 0);
      const randomized = randomizeComposeFile(template.compose, 'r4nd');
      assert.equal(composeFileProblem(randomized), null);
      assert.deepEqual(serviceNames(randomized), services.map((name) => `${name}-r4nd`));

      const env = generatedEnv(template);
      assert.deepEqual(Object.keys(envMap(env)).sort(), Object.keys(template.variables).sort());
      for (const text of [template.compose, randomized]) {
        const spec = stackSpec(text, { appName: 'tpl-app', env });
        assert.equal(spec.services.length, services.length);
        for (const service of spec.services) {
          assert.match(service.Name, /^tpl-app_/);
          assert.ok(!JSON.stringify(service).includes('${'), `${service.Name} keeps an unresolved variable`);
        }
      }
      // Every variable the file uses is one the template generates.
      for (const [, name] of template.compose.matchAll(/\$\{([A-Z0-9_]+)/g)) assert.ok(name! in template.variables, `${template.id} uses \${${name}} it does not declare`);
    });
  }
});

describe('compose.templates and compose.deployTemplate', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    projectId = (await berth.ok('project.create', { name: 'templates' })).projectId;
  });
  after(() => berth.stop());

  it('lists every template with what the catalogue shows, and no compose file', async () => {
    const listed = await berth.ok('compose.templates');
    assert.equal(listed.length, templates().length);
    const gitea = listed.find((t: { id: string }) => t.id === 'gitea');
    assert.deepEqual(Object.keys(gitea).sort(), ['description', 'id', 'links', 'name', 'tags', 'version']);
  });

  it('deploys a template as a raw stack in the project, with passwords of its own each time', async () => {
    const first = await berth.ok('compose.deployTemplate', { projectId, id: 'gitea' });
    const second = await berth.ok('compose.deployTemplate', { projectId, id: 'gitea' });
    assert.equal(first.sourceType, 'raw');
    assert.equal(first.composeType, 'stack');
    assert.match(first.appName, /^gitea-[0-9a-f]{6}$/);
    assert.notEqual(first.appName, second.appName);
    const password = envMap(first.env).DB_PASSWORD;
    assert.ok(password && password.length >= 32);
    assert.notEqual(password, envMap(second.env).DB_PASSWORD);
    assert.deepEqual(await berth.ok('compose.allServices', { composeId: first.composeId }), ['gitea', 'db']);
    const project = await berth.ok('project.one', { projectId });
    assert.ok(JSON.stringify(project).includes(first.composeId));
  });
});
