// A deploy token the caller chooses with `update` (the spec's refreshToken field) is kept sealed
// like a generated one: pushes with it deploy, and the log never holds it in clear.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('a deploy token chosen on update', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'tokens' }));
  });
  after(() => berth.stop());

  const push = (path: string, token: string) =>
    berth.app.inject({ method: 'POST', url: `/api/deploy/${path}${token}`, payload: {} });

  for (const kind of [
    {
      what: 'application', path: '', create: 'application.create', update: 'application.update', refresh: 'application.refreshToken', id: 'applicationId', one: 'application.one',
      source: { sourceType: 'container', containerImage: 'example/app:1' },
    },
    {
      what: 'compose service', path: 'compose/', create: 'compose.create', update: 'compose.update', refresh: 'compose.refreshToken', id: 'composeId', one: 'compose.one',
      source: { sourceType: 'raw', composeFile: 'services:\n  web:\n    image: example/web:1\n' },
    },
  ]) {
    it(`deploys the ${kind.what} on a push with it, answers it as given, and keeps it out of the log in clear`, async () => {
      const created = await berth.ok(kind.create, { name: 'pushed', projectId });
      const id = created[kind.id] as string;
      const chosen = `a-token-chosen-for-the-${kind.what.replace(' ', '-')}-0123456789`;
      await berth.ok(kind.update, { [kind.id]: id, refreshToken: chosen, autoDeploy: true, ...kind.source });
      assert.equal((await berth.ok(kind.one, { [kind.id]: id })).refreshToken, chosen);
      const pushed = await push(kind.path, chosen);
      assert.equal(pushed.statusCode, 200, pushed.body);
      assert.equal(pushed.json().status, 'queued');
      assert.equal((await push(kind.path, created.refreshToken)).statusCode, 401, 'the replaced token still deploys');
      assert.ok(!(await berth.eventLog()).includes(chosen), 'the chosen token is in the log in clear');
      // Sent back as it was answered, the record changes nothing.
      const head = await berth.head();
      await berth.ok(kind.update, { [kind.id]: id, refreshToken: chosen });
      assert.equal(await berth.head(), head);
    });

    it(`refuses a chosen ${kind.what} token that is short, has other characters, or is another ${kind.what}'s, naming refreshToken`, async () => {
      const ids = [];
      for (const name of ['first', 'second']) ids.push((await berth.ok(kind.create, { name, projectId }))[kind.id] as string);
      for (const weak of ['x', 'a'.repeat(20), `${'a'.repeat(24)} b`, `${'a'.repeat(24)}/`]) {
        await berth.refused(kind.update, { [kind.id]: ids[0], refreshToken: weak }, 400, 'refreshToken');
      }
      const shared = `one-token-for-one-${kind.what.replace(' ', '-')}-only`;
      await berth.ok(kind.update, { [kind.id]: ids[0], refreshToken: shared });
      await berth.refused(kind.update, { [kind.id]: ids[1], refreshToken: shared }, 409, 'refreshToken');
      // A token Berth made is one a caller may choose: sent back as answered, or again after a refresh.
      const generated = (await berth.ok(kind.one, { [kind.id]: ids[1] })).refreshToken;
      await berth.ok(kind.update, { [kind.id]: ids[1], refreshToken: generated });
      await berth.ok(kind.refresh, { [kind.id]: ids[1] });
      assert.equal((await berth.ok(kind.update, { [kind.id]: ids[1], refreshToken: generated })).refreshToken, generated);
    });
  }
});
