// The `berth` command against a running Berth, as a person and a script use it: sign in (the
// token kept owner-only), create a project and an application, read them back, see the history.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listeningBerth, type ListeningBerth } from '../support/http.ts';
import { runBerth, spawnBerth } from './berth-process.ts';

const ADMIN = { email: 'cli@berth.test', password: 'a long enough password' };

describe('the berth CLI', () => {
  let server: ListeningBerth;
  let home: string;
  const env = () => ({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: '', BERTH_TOKEN: '' });

  const berth = (...args: string[]) => runBerth(env(), ...args);
  const json = async (...args: string[]) => {
    const run = await berth(...args, '--json');
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout);
  };

  before(async () => {
    server = await listeningBerth();
    home = mkdtempSync(join(tmpdir(), 'berth-cli-'));
    server.client.token = server.setupToken();
    await server.client.ok('auth.createAdmin', ADMIN);
    server.client.token = (await server.client.ok('auth.login', ADMIN)).token;
  });
  after(async () => {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('drives login → project → application → read back → events', async () => {
    const login = await berth('login', '--url', server.baseUrl, '--email', ADMIN.email, '--password', ADMIN.password);
    assert.equal(login.code, 0, login.stderr);
    const file = join(home, 'config.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).url, server.baseUrl);

    const project = await json('project', 'create', '--name', 'shop', '--description', 'from the CLI');
    assert.equal(project.name, 'shop');
    const application = await json('application', 'create', '--name', 'web', '--project-id', project.projectId);
    const read = await json('application', 'one', '--applicationId', application.applicationId);
    assert.equal(read.name, 'web');
    assert.equal(read.projectId, project.projectId);

    const table = await berth('project', 'all');
    assert.equal(table.code, 0, table.stderr);
    const [header, rule, ...rows] = table.stdout.trim().split('\n');
    assert.match(header!, /projectId\s+name/);
    assert.match(rule!, /^-+/);
    assert.ok(rows.some((row) => row.includes(project.projectId) && row.includes('shop')));

    const me = await server.client.ok('auth.get');
    const { events } = await json('events', '--aggregate', 'application');
    assert.deepEqual(events.map((event: any) => event.type), ['ApplicationCreated']);
    assert.equal(events[0].data.applicationId, application.applicationId);
    assert.equal(events[0].metadata.actorId, me.id);
    assert.ok(events[0].metadata.correlationId);
    const history = await berth('events', '--stream', `project-${project.projectId}`);
    assert.match(history.stdout, /ProjectCreated/);
  });

  it('says what is wrong with a command before calling, and shows the API refusal after', async () => {
    const unknown = await berth('project', 'create', '--nme', 'x');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown flag --nme; this command takes --name --description/);
    const typed = await berth('port', 'create', '--published-port', 'eighty', '--target-port', '80', '--application-id', 'x');
    assert.equal(typed.code, 2);
    assert.match(typed.stderr, /--published-port is a number/);
    const refused = await berth('project', 'create', '--name', '');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^400 BAD_REQUEST: name\b/);
  });

  it('tails the history live and shows each projection\'s status', async () => {
    const child = spawnBerth(env(), ['events', 'tail', '--aggregate', 'project', '--after', String(await server.berth.infrastructure.eventStore.head()), '--json']);
    let output = '';
    const firstLine = new Promise<string>((resolve) => child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(output.split('\n')[0]!);
    }));
    // The tail is connected once its process has started: create until it reports.
    let line: string | undefined;
    // Bounded by time, not by tries: a loaded machine takes seconds to start the CLI's process.
    const deadline = Date.now() + 60_000;
    for (let i = 0; Date.now() < deadline && line === undefined; i++) {
      await server.client.ok('project.create', { name: `tailed ${i}` });
      line = await Promise.race([firstLine, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200))]);
    }
    child.kill();
    assert.ok(line, 'the tail printed an event');
    assert.equal(JSON.parse(line).type, 'ProjectCreated');

    const status = await json('projections', 'status');
    assert.ok(status.some((row: any) => row.name === 'entity:project' && row.lagEvents === 0));
  });
});
