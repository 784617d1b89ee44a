// Settings of a compose service that could never deploy as given, or would silently run something
// else, are refused by compose.update with a 400 naming the field, and change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pathsOf, startBerth, type TestBerth } from '../support/berth.ts';

describe('compose.update refuses settings that could never deploy as given', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'compose settings' }));
  });
  after(() => berth.stop());

  async function refused(composeId: string, input: Record<string, unknown>, field: string, pattern: RegExp) {
    const before = await berth.ok('compose.one', { composeId });
    const answer = await berth.call('compose.update', { composeId, ...input });
    assert.equal(answer.status, 400, `${JSON.stringify(input)}: ${JSON.stringify(answer.body)}`);
    assert.deepEqual(pathsOf(answer.body), [field]);
    assert.match(answer.body.message, pattern);
    assert.deepEqual(await berth.ok('compose.one', { composeId }), before, 'nothing changed');
  }

  it('a composePath that is absolute or climbs out of the repository is refused, naming composePath', async () => {
    const { composeId } = await berth.ok('compose.create', { name: 'paths', projectId, composeType: 'container-compose' });
    for (const composePath of ['/etc/passwd', '/srv/app/docker-compose.yml', '../docker-compose.yml', 'deploy/../../compose.yml']) {
      await refused(composeId, { sourceType: 'git', customGitUrl: 'https://example.test/a.git', composePath }, 'composePath', /relative|repository/);
    }
    const saved = await berth.ok('compose.update', { composeId, composePath: 'deploy/./compose.yml' });
    assert.equal(saved.composePath, 'deploy/./compose.yml', 'a path inside the repository is kept');
  });

  it('a command with an unclosed quote, or a whole command line that is not Berth\'s own, is refused, naming command', async () => {
    const { composeId, appName } = await berth.ok('compose.create', { name: 'commands', projectId, composeType: 'container-compose' });
    await refused(composeId, { command: 'up -d "web' }, 'command', /quote/);
    await refused(composeId, { command: 'docker stack deploy -c docker-compose.yml x' }, 'command', /whole command line/);
    await refused(composeId, { command: 'docker-compose -p other -f docker-compose.yml up -d' }, 'command', /whole command line/);
    // The line getDefaultCommand shows, and the tool's own arguments, are kept.
    const line = await berth.ok('compose.getDefaultCommand', { composeId });
    assert.equal((await berth.ok('compose.update', { composeId, command: line })).command, line);
    assert.equal((await berth.ok('compose.update', { composeId, command: 'up -d web' })).command, 'up -d web');
    assert.ok(appName);
  });
});
