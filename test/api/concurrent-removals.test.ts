// Removals of one record at the same moment: one removes it, and every other is refused naming the
// id its request sent, never a dependent's (a port, a service) that the winner took meanwhile.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('removals of one record at the same moment', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  const refusedFields = (answers: Array<{ status: number; body: { issues?: Array<{ path?: string }> } }>) =>
    answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.body.issues?.[0]?.path}`);

  it('three deletes of an application with ports and redirects: one succeeds, the others name applicationId', async () => {
    for (let round = 0; round < 10; round++) {
      const { projectId } = await berth.ok('project.create', { name: `round ${round}` });
      const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
      for (let i = 0; i < 3; i++) await berth.ok('port.create', { applicationId, publishedPort: 20_000 + round * 10 + i, targetPort: 80 + i });
      await berth.ok('redirects.create', { applicationId, regex: '^/a', replacement: '/b', permanent: false });
      const answers = await Promise.all([1, 2, 3].map(() => berth.call('application.delete', { applicationId })));
      assert.equal(answers.filter((answer) => answer.status === 200).length, 1, JSON.stringify(answers.map((answer) => answer.body)));
      for (const refused of refusedFields(answers)) assert.match(refused, /^(404|409) applicationId$/);
    }
  });

  it('two removals of a project with services: one succeeds, the other names projectId', async () => {
    for (let round = 0; round < 10; round++) {
      const { projectId } = await berth.ok('project.create', { name: `removed ${round}` });
      for (let i = 0; i < 3; i++) await berth.ok('application.create', { name: `app ${i}`, projectId });
      const answers = await Promise.all([1, 2].map(() => berth.call('project.remove', { projectId })));
      assert.equal(answers.filter((answer) => answer.status === 200).length, 1, JSON.stringify(answers.map((answer) => answer.body)));
      for (const refused of refusedFields(answers)) assert.match(refused, /^(404|409) projectId$/);
    }
  });
});
