// A `container-compose` service runs plain containers, which the engine watch follows by their
// container events: one of its file's services stopped behind Berth's back (`docker stop`) shows
// `error`; started again, `done`; its containers removed (`docker rm -f`), `error`. Berth's own
// stop, redeploy and delete, which stop and remove the containers too, never show it, nor does a
// container the engine restarts by its policy. On the real engine.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually, uniqueName } from '../support/engine.ts';
import { docker, projectContainers, removeComposeProjects } from '../support/compose-projects.ts';
import { deployed, engineChanges, statusIs, type Deployed } from './drift-services.ts';

const PREFIX = 'berth-test-ccdrift';

/**
 * Services of the test image, no host port: `web` up unless stopped, `side` restarted by the engine
 * whenever it exits, and `init` a one-off that does its work and exits (no change to see).
 */
const PAIR = `services:
  web:
    image: ${TEST_IMAGE}
    restart: unless-stopped
  side:
    image: ${TEST_IMAGE}
    restart: always
  init:
    image: ${TEST_IMAGE}
    entrypoint: ["sh", "-c", "exit 0"]
`;

const containerOf = (appName: string, service: string): string =>
  docker('ps', '-aq', '--filter', `label=com.docker.compose.project=${appName}`, '--filter', `label=com.docker.compose.service=${service}`);

const seenChanges = async (berth: TestBerth, service: Deployed) => (await engineChanges(berth, service)).map((change) => change.split(':')[1]);

describe('the engine watch of container-compose services', { timeout: 120_000 }, () => {
  let berth: TestBerth;
  let projectId: string;
  const projects: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'compose drift' }));
  });
  after(async () => {
    try {
      removeComposeProjects(projects);
    } finally {
      await berth.stop();
    }
  });

  async function deployedProject(): Promise<Deployed> {
    const asked = uniqueName(PREFIX);
    const { composeId, appName } = await berth.ok('compose.create', { name: asked, appName: asked, projectId, composeType: 'container-compose' });
    projects.push(appName);
    await berth.ok('compose.update', { composeId, composeFile: PAIR });
    const service = { kind: 'compose', id: composeId, idField: 'composeId', appName, engineName: appName } as const;
    await deployed(berth, service);
    // `up -d` answers once init started: it may still be running a moment.
    await eventually('web and side to run, and init to have done its work', async () => projectContainers(appName).length === 2);
    return service;
  }

  it('shows a service of the project stopped behind Berth\'s back as error, started again as done, removed as error', async () => {
    const service = await deployedProject();
    const web = containerOf(service.appName, 'web');

    docker('stop', web);
    await statusIs(berth, service, 'error');
    docker('start', web);
    await statusIs(berth, service, 'done');
    docker('rm', '-f', ...projectContainers(service.appName, true));
    await statusIs(berth, service, 'error');
    assert.deepEqual(await seenChanges(berth, service), ['no-replicas', 'replicas', 'missing']);

    await deployed(berth, service);
    assert.equal((await engineChanges(berth, service)).length, 3, 'the deploy moved the status itself');
  });

  it('never shows Berth\'s own stop, redeploy or delete, nor a container the engine restarts; the operator\'s stop after them is the only change', async () => {
    const service = await deployedProject();
    for (let round = 0; round < 2; round++) {
      assert.equal((await berth.ok('compose.stop', { composeId: service.id })).composeStatus, 'idle');
      await deployed(berth, service);
    }
    await deployed(berth, service);

    // Its process ends; the engine starts it again (restart: always). Detached: an attached exec
    // can itself fail when the container dies before the exec's own answer.
    const side = containerOf(service.appName, 'side');
    docker('exec', '-d', side, 'sh', '-c', 'kill 1');
    await eventually('the engine to restart side', async () => docker('inspect', '-f', '{{.RestartCount}} {{.State.Running}}', side) === '1 true', 20_000);

    // Checked in order after Berth's own: once this one is recorded, every check before it was made.
    docker('stop', containerOf(service.appName, 'web'));
    await statusIs(berth, service, 'error');
    assert.deepEqual(await seenChanges(berth, service), ['no-replicas']);

    await deployed(berth, service);
    await berth.ok('compose.delete', { composeId: service.id });
    await eventually('the project gone from the engine', async () => projectContainers(service.appName, true).length === 0, 30_000);
    // The watch's check of the removal runs in the service's turn, right after it: a moment is plenty.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual(await seenChanges(berth, service), ['no-replicas']);
  });
});
