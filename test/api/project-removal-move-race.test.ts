// A project's removal races moves of its services to another project: a move that answered 200
// must leave its service whole in the other project (an application with its port), and a service
// still in the removed project must be gone with it. Neither may lose to the other half-way.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENGINES } from '@berth/shared/contract/databases';
import { startBerth, type Answer, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { usageOf } from '../support/log.ts';

const ROUNDS = 20;

interface Kind {
  readonly name: string;
  readonly id: string;
  readonly create: (projectId: string, i: number) => Record<string, unknown>;
}

const KINDS: readonly Kind[] = [
  { name: 'application', id: 'applicationId', create: (projectId) => ({ name: 'app', projectId }) },
  { name: 'compose', id: 'composeId', create: (projectId) => ({ name: 'stack', projectId }) },
  ...ENGINES.map((engine): Kind => ({
    name: engine, id: `${engine}Id`, create: (projectId, i) => ({ name: 'db', appName: `db-${engine}-${i}`, projectId, ...databaseCredentials(engine) }),
  })),
];

describe('a project removed while its services move out', () => {
  let berth: TestBerth;
  let nextPort = 30000 + Math.floor(Math.random() * 20000);
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  it('leaves every service that moved whole in its new project, and takes every other one', async (t) => {
    const outcomes = { moved: 0, removed: 0 };
    const problems: string[] = [];
    let failedRounds = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const known = problems.length;
      const { projectId: doomed } = await berth.ok('project.create', { name: `doomed-${round}` });
      const { projectId: kept } = await berth.ok('project.create', { name: `kept-${round}` });
      const services = await Promise.all(KINDS.map(async (kind) => {
        const created = await berth.ok(`${kind.name}.create`, kind.create(doomed, round));
        return { kind, id: created[kind.id] as string };
      }));
      const applicationId = services[0]!.id;
      const port = await berth.ok('port.create', { applicationId, publishedPort: nextPort++, targetPort: 80 });

      const [removed, ...moves] = await Promise.all([
        berth.call('project.remove', { projectId: doomed }),
        ...services.map(({ kind, id }) => berth.call(`${kind.name}.update`, { [kind.id]: id, projectId: kept })),
      ]) as Answer[];
      assert.equal(removed!.status, 200, JSON.stringify(removed!.body));
      assert.equal((await berth.call('project.one', { projectId: doomed })).status, 404);

      const movedIds: string[] = [];
      for (const [i, move] of moves.entries()) {
        const { kind, id } = services[i]!;
        const now = await berth.call(`${kind.name}.one`, { [kind.id]: id });
        const where = `round ${round}: ${kind.name} ${id}`;
        if (move.status === 200) {
          outcomes.moved++;
          movedIds.push(id);
          if (now.status !== 200) problems.push(`${where} moved (200) but was removed with its old project`);
          else if (now.body.projectId !== kept) problems.push(`${where} moved (200) but is in ${now.body.projectId}`);
          if (kind.name === 'application' && (await berth.call('port.one', { portId: port.portId })).status !== 200) {
            problems.push(`${where} moved (200) but lost its port`);
          }
        } else {
          outcomes.removed++;
          assert.ok([404, 409].includes(move.status), `${kind.name}.update answered ${move.status}: ${JSON.stringify(move.body)}`);
          if (now.status !== 404) problems.push(`${where} stayed in the removed project (its move answered ${move.status})`);
        }
      }
      // The project's answer lists exactly the services whose move answered 200.
      const listed = await berth.ok('project.one', { projectId: kept });
      const ids = KINDS.flatMap((kind) => (listed[kind.name === 'application' ? 'applications' : kind.name] as Record<string, string>[]).map((doc) => doc[kind.id]!));
      if (ids.sort().join() !== movedIds.sort().join()) problems.push(`round ${round}: ${kept} lists ${ids.join()}, moved were ${movedIds.join()}`);
      // Each move let go of the removed project and is counted by the one it moved to.
      assert.deepEqual(await usageOf(berth, 'project', doomed), { users: [], retired: true }, `round ${round}`);
      assert.deepEqual(await usageOf(berth, 'project', kept), { users: movedIds, retired: false }, `round ${round}`);
      if (problems.length > known) failedRounds++;
    }
    assert.deepEqual(problems, [], `${failedRounds} of ${ROUNDS} rounds went wrong`);
    t.diagnostic(`moves that landed: ${outcomes.moved}, services removed with the project: ${outcomes.removed}`);
    // Both outcomes should show up over the rounds, or the race was never run.
    assert.ok(outcomes.moved > 0 && outcomes.removed > 0, JSON.stringify(outcomes));
  });
});
