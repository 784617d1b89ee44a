// An env text is read when it is saved, as the deployer reads it: a line that is not KEY=value, or
// a quoted value left open, is refused with a 400 naming `env` and the line (never its value: env
// holds secrets), wherever env is saved (an application, a compose service, a database), and nothing
// is appended. A text recorded before this rule was stated is not refused when sent back unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Context } from '@berth/command-api/context';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { startBerth, type TestBerth } from '../support/berth.ts';

const SECRET = `s3cret-${Math.random().toString(36).slice(2)}`;
const BAD_LINE = `GOOD=1\n${SECRET} not a line\n1BAD=x`;
const OPEN_QUOTE = `GOOD=1\n\nTOKEN="${SECRET}`;

describe('an env text is read on save', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'env on save' }));
  });
  after(() => berth.stop());

  /** 400 naming env and the line, not the value. */
  const refusesEnv = async (operation: string, input: Record<string, unknown>, line: number) => {
    const body = await berth.refused(operation, input, 400, 'env');
    assert.match(body.message, new RegExp(`^env line ${line} `));
    assert.ok(!JSON.stringify(body).includes(SECRET), `the answer shows the value: ${JSON.stringify(body)}`);
  };

  it('refuses an application env with a line that is not KEY=value or a quote left open, on saveEnvironment and update', async () => {
    const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
    await refusesEnv('application.saveEnvironment', { applicationId, env: BAD_LINE }, 2);
    await refusesEnv('application.update', { applicationId, env: BAD_LINE }, 2);
    await refusesEnv('application.saveEnvironment', { applicationId, env: OPEN_QUOTE }, 3);
    await refusesEnv('application.update', { applicationId, env: 'A=1\r\nB="x\\"' }, 2);
    assert.equal((await berth.ok('application.one', { applicationId })).env, null);
    const env = 'export A="x \\"y\\" \\\\z"\n# note\n\nB=plain # comment';
    assert.equal((await berth.ok('application.saveEnvironment', { applicationId, env })).env, env);
  });

  it('refuses a compose env the same way', async () => {
    const { composeId } = await berth.ok('compose.create', { name: 'stack', projectId });
    await refusesEnv('compose.update', { composeId, env: BAD_LINE }, 2);
  });

  it('refuses a database env the same way, on saveEnvironment and update', async () => {
    const { dbepsilonId } = await berth.ok('dbepsilon.create', { name: 'kv', appName: 'kv', projectId, databasePassword: 'Env-On-Save-Pass-7' });
    await refusesEnv('dbepsilon.saveEnvironment', { dbepsilonId, env: OPEN_QUOTE }, 3);
    await refusesEnv('dbepsilon.update', { dbepsilonId, env: BAD_LINE }, 2);
  });

  it('takes back unchanged an env recorded before the rule, so the rest of the record can still be saved', async () => {
    const { applicationId } = await berth.ok('application.create', { name: 'older', projectId });
    const ctx = new Context(berth.berth.infrastructure, null, 'older-env');
    await ctx.execute(applicationAggregate, applicationId, { type: 'SaveEnvironment', data: { applicationId, env: ctx.secrets.seal(BAD_LINE) } });
    await berth.berth.infrastructure.readStore.waitFor(ctx.position, 5_000);
    const record = await berth.ok('application.one', { applicationId });
    assert.equal(record.env, BAD_LINE);
    await berth.ok('application.update', { applicationId, env: BAD_LINE, description: 'still editable' });
    await refusesEnv('application.update', { applicationId, env: `${BAD_LINE}\nC=3` }, 2);
  });
});
