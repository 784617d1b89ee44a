// The crash itself: a whole `berth start` killed with SIGKILL once a removal has begun (its mark is
// appended to the stopped Berth's log, as the killed removal left it), then started again on the same
// data folder: by the time it answers, the service is gone and its appName and host port are free.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { databaseAggregates } from '@berth/shared/domain/database/database';
import { configFrom } from '@berth/shared/runtime/config';
import { execute } from '@berth/shared/runtime/execute';
import { launch } from '@berth/shared/runtime/launch';
import { databaseCredentials } from '../support/databases.ts';
import { freePort, httpClient } from '../support/http.ts';
import { eventually, startRole, type RoleProcess } from '../support/role-process.ts';

// The API's port (the same across the restart), and host ports only claimed in the log.
const API_PORT = await freePort();
const APP_PORT = 43551;
const DB_PORT = 43552;
const ADMIN = { email: 'killed@berth.test', password: 'a long enough password' };

describe('a removal killed part-way, after a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-removal-killed-'));
  const api = httpClient(`http://127.0.0.1:${API_PORT}`);
  let running: RoleProcess | null = null;

  async function start() {
    const role = startRole('start', {
      BERTH_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(API_PORT), BERTH_LOG_LEVEL: 'silent', BERTH_SQLITE_SYNCHRONOUS: 'NORMAL',
    });
    running = role;
    await eventually(async () => (await fetch(`${api.baseUrl}/ready`)).status === 200, 60_000, 'berth start to be ready')
      .catch((error: Error) => { throw new Error(`${error.message}\n${role.output.join('')}`); });
    return role;
  }
  async function kill() {
    running?.child.kill('SIGKILL');
    await running?.exited;
    running = null;
  }
  after(async () => {
    await kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Appends the mark to the stopped Berth's log, as its killed removal left it. */
  async function markInStoppedLog(marks: Array<[AnyAggregate, string]>) {
    const berth = await launch(configFrom({}, { dataDir, roles: [], logLevel: 'silent' }));
    const cause = { actorId: null, correlationId: 'killed-removal', causationId: null, occurredAt: new Date().toISOString() };
    for (const [aggregate, id] of marks) {
      await execute(berth.infrastructure.eventStore, aggregate, id, { type: 'BeginRemoval', data: { [aggregate.idField]: id } }, cause);
    }
    await berth.stop();
  }

  it('an application and a database are gone, and their appNames and host ports free', async () => {
    await start();
    api.token = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
    await api.ok('auth.createAdmin', ADMIN);
    api.token = (await api.ok('auth.login', ADMIN)).token;
    const { projectId } = await api.ok('project.create', { name: 'p' });
    const { applicationId } = await api.ok('application.create', { name: 'web', appName: 'killed-web', projectId });
    await api.ok('port.create', { applicationId, publishedPort: APP_PORT, targetPort: 80 });
    const { dbgammaId } = await api.ok('dbgamma.create', { name: 'db', appName: 'killed-db', projectId, ...databaseCredentials('dbgamma') });
    await api.ok('dbgamma.saveExternalPort', { dbgammaId, externalPort: DB_PORT });
    await kill();

    await markInStoppedLog([[applicationAggregate as unknown as AnyAggregate, applicationId], [databaseAggregates.dbgamma as unknown as AnyAggregate, dbgammaId]]);
    const restarted = await start();

    assert.equal((await api.call('application.one', { applicationId })).status, 404);
    assert.equal((await api.call('dbgamma.one', { dbgammaId })).status, 404);
    const { applicationId: next } = await api.ok('application.create', { name: 'web again', appName: 'killed-web', projectId });
    await api.ok('port.create', { applicationId: next, publishedPort: APP_PORT, targetPort: 80 });
    const { dbgammaId: nextDb } = await api.ok('dbgamma.create', { name: 'db again', appName: 'killed-db', projectId, ...databaseCredentials('dbgamma') });
    await api.ok('dbgamma.saveExternalPort', { dbgammaId: nextDb, externalPort: DB_PORT });
    assert.doesNotMatch(restarted.output.join(''), /left part-way/);
  });
});
