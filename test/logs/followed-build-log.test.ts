// Followers of a real build's log on the real engine: a build step prints some 20 MB while five
// clients follow it over HTTP. Each receives every line of the log once, in order, the last lines
// written just before the deployment ended included, then `end`; and the followers together cost
// the server a bounded share of a core.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { removeDeployed } from '../support/engine.ts';
import { gitRepo, type GitRepo } from '../support/git-repo.ts';
import { TEST_IMAGE } from '../support/engine.ts';

/** Where the test's Berth listens: a free port, taken at start. */
let port = 0;
const LINES = 200_000;
// About 100 bytes a line, numbered so a line lost, doubled or out of order shows.
const NOISY_CONTAINERFILE = `FROM ${TEST_IMAGE}
RUN i=0; while [ $i -lt ${LINES} ]; do echo "build line $i ................................................................................"; i=$((i+1)); done
COPY index.html /www/index.html
`;

/** Follows the deployment's log over HTTP: the `line` events' data, and the `end` event's. */
async function follow(token: string, deploymentId: string) {
  const response = await fetch(`http://127.0.0.1:${port}/api/deployment.logs?deploymentId=${deploymentId}&follow=true`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200);
  const lines: string[] = [];
  let end: string | null = null;
  let rest = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    const events = (rest + decoder.decode(chunk, { stream: true })).split('\n\n');
    rest = events.pop()!;
    for (const event of events) {
      if (event.startsWith('event: line\ndata: ')) lines.push(event.slice('event: line\ndata: '.length));
      else if (event.startsWith('event: end\ndata: ')) end = event.slice('event: end\ndata: '.length);
    }
  }
  return { lines, end };
}

describe('a real build log followed by five clients', () => {
  let berth: TestBerth;
  let repo: GitRepo;
  const services: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 30_000, taskStartTimeoutMs: 20_000 } });
    await berth.app.listen({ port: 0, host: '127.0.0.1' });
    ({ port } = berth.app.server.address() as AddressInfo);
    repo = gitRepo();
  });
  after(async () => {
    await removeDeployed(services);
    await berth.stop();
    repo.remove();
  });

  it('sends each follower every line of a 20 MB build log once, in order, up to the last before the end', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'logs' });
    const app = await berth.ok('application.create', { name: 'berth-test-logs-follow', projectId });
    services.push(app.appName);
    await berth.ok('application.saveGitProdiver', { applicationId: app.applicationId, customGitUrl: repo.dir, customGitBranch: 'main', customGitBuildPath: null });
    repo.commit({ Containerfile: NOISY_CONTAINERFILE, 'index.html': 'noisy\n' });
    const { deploymentId } = await berth.ok('application.deploy', { applicationId: app.applicationId });
    const cpu = process.cpuUsage();
    const started = Date.now();
    const followed = await Promise.all(Array.from({ length: 5 }, () => follow(berth.token, deploymentId)));
    const { user, system } = process.cpuUsage(cpu);
    const { status, log } = await berth.ok('deployment.logs', { deploymentId });
    const written: string[] = log.split(/\r\n|\r|\n/).slice(0, -1);
    assert.equal(status, 'done', written.slice(-5).join('\n'));
    const printed = written.filter((line) => line.includes('build line')).length;
    assert.ok(printed >= LINES, `the build printed ${printed} lines into the log: ${written.slice(-3).join('\n')}`);
    for (const [index, { lines, end }] of followed.entries()) {
      assert.equal(lines.length, written.length, `follower ${index}: as many lines as the log holds`);
      const firstWrong = lines.findIndex((line, at) => line !== written[at]);
      assert.equal(firstWrong, -1, `follower ${index}: line ${firstWrong} differs`);
      assert.match(lines.at(-1)!, /^Done: /, `follower ${index}: the last line, written just before the end`);
      assert.equal(JSON.parse(end!).status, 'done');
    }
    // Everything in this process (the build's reading, the followers' clients) against the wall time.
    const share = (user + system) / 1000 / (Date.now() - started);
    console.log(`# ${(log.length / 1e6).toFixed(1)} MB log, 5 followers: ${(share * 100).toFixed(0)}% of a core over ${Date.now() - started} ms`);
  });
});
