// project.one and project.all answer from the service summaries' read model: after a history of
// creations, renames, status changes and removals, and again after the read models are rebuilt
// from the log, they say exactly what each service's own record says, for an admin and for a
// user who sees only some services.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ProjectWithServices } from '@berth/shared/contract/project';
import { SERVICE_KINDS } from '@berth/shared/domain/service-kinds';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { invitedUser, type TestUser } from '../support/users.ts';
import { buildWorld } from '../e2e/world.ts';

type Doc = Record<string, unknown>;

const fieldsOf = (key: string) => Object.keys(
  (ProjectWithServices.properties[key as keyof typeof ProjectWithServices.properties] as unknown as { items: { properties: Doc } }).items.properties,
);
const pick = (doc: Doc, fields: string[]) => Object.fromEntries(fields.map((field) => [field, doc[field]]));

describe('project answers match the services\' own records', () => {
  let berth: TestBerth;
  let user: TestUser;
  let projectIds: string[];

  /** What project.one should answer, built from the per-aggregate records the API also shows. */
  async function expected(projectId: string, visible: (serviceId: string) => boolean): Promise<Doc> {
    const store = berth.berth.infrastructure.readStore;
    const project = (await store.get('project', projectId))!;
    const answer: Doc = pick(project, ['projectId', 'name', 'description', 'createdAt']);
    for (const kind of SERVICE_KINDS) {
      const records = (await store.find(kind.aggregate.name, 'projectId', projectId))
        .filter((record) => visible(String(record[kind.aggregate.idField])))
        .sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
      answer[kind.key] = records.map((record) => pick(record, fieldsOf(kind.key)));
    }
    return answer;
  }

  async function assertParity() {
    const access = (await berth.ok('user.byUserId', { userId: user.id })).permissions;
    const callers = [
      { token: berth.token, sees: () => true, projects: projectIds },
      { token: user.token, sees: (id: string) => access.accesedServices.includes(id), projects: access.accesedProjects as string[] },
    ];
    for (const caller of callers) {
      const all = (await berth.call('project.all', {}, { token: caller.token })).body as Doc[];
      assert.deepEqual(all.map((project) => project.projectId).sort(), [...caller.projects].sort());
      for (const projectId of caller.projects) {
        const want = await expected(projectId, caller.sees);
        assert.deepEqual((await berth.call('project.one', { projectId }, { token: caller.token })).body, want);
        assert.deepEqual(all.find((project) => project.projectId === projectId), want);
      }
    }
  }

  before(async () => {
    berth = await startBerth();
    await buildWorld(berth.ok, { projects: 3 });
    const projects = (await berth.ok('project.all')) as Array<Doc & { applications: Doc[]; compose: Doc[]; dbgamma: Doc[]; dbalpha: Doc[] }>;
    projectIds = projects.map((project) => String(project.projectId));
    const [first, second] = projects;
    // Given before its removal below: an access list keeps the id of a service that is gone.
    user = await invitedUser(berth, {
      accesedProjects: [first!.projectId, second!.projectId],
      accesedServices: [first!.applications[0]!.applicationId, first!.dbgamma[0]!.dbgammaId, second!.dbalpha[0]!.dbalphaId],
    });
    // Renames, a status change, a published port, a removal of each kind, a service added late.
    await berth.ok('application.update', { applicationId: first!.applications[0]!.applicationId, name: 'renamed app' });
    await berth.ok('dbgamma.changeStatus', { dbgammaId: first!.dbgamma[0]!.dbgammaId, applicationStatus: 'running' });
    await berth.ok('dbalpha.saveExternalPort', { dbalphaId: first!.dbalpha[0]!.dbalphaId, externalPort: 45000 + Math.floor(Math.random() * 10000) });
    await berth.ok('compose.delete', { composeId: second!.compose[0]!.composeId });
    await berth.ok('dbalpha.remove', { dbalphaId: second!.dbalpha[0]!.dbalphaId });
    const late = await berth.ok('application.create', { name: 'late', projectId: second!.projectId });
    // Only a service never deployed may take a new appName.
    await berth.ok('application.update', { applicationId: late.applicationId, appName: 'renamed-app' });
  });
  after(() => berth.stop());

  it('after the walkthrough, for an admin and for a user who sees some services', assertParity);

  it('after the read models are rebuilt from the log', async () => {
    const before = await berth.ok('project.all');
    await berth.stop({ keepData: true });
    rmSync(join(berth.dataDir, 'read-models.db'), { force: true });
    for (const suffix of ['-wal', '-shm']) rmSync(join(berth.dataDir, `read-models.db${suffix}`), { force: true });
    berth = await startBerth({ dataDir: berth.dataDir });
    user.token = (await berth.call('auth.login', { email: user.email, password: user.password }, { token: null })).body.token;
    assert.deepEqual(await berth.ok('project.all'), before);
    await assertParity();
  });
});
