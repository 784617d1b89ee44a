// A stack redeployed with new secret and config contents that keeps failing leaves no secret or
// config of its failed deploys: each created its own (the engine cannot change one), and only a
// successful deploy used to remove those no service uses.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { ended } from '../support/deployments.ts';
import { TEST_IMAGE } from '../support/engine.ts';
import { removeStacks, stacks } from '../support/stacks.ts';

const FAILED_DEPLOYS = 4;
let berth: TestBerth;
let composeId = '';
let appName = '';
before(async () => {
  berth = await startBerthWithReactors({ config: { keepDeployments: 2, actionWaitMs: 30_000, taskStartTimeoutMs: 20_000 } });
  const { projectId } = await berth.ok('project.create', { name: 'growth' });
  ({ composeId, appName } = await berth.ok('compose.create', { name: 'berth-test-growth-stack', projectId, composeType: 'stack' }));
});
after(async () => {
  await removeStacks([appName]);
  for (const kind of ['secret', 'config'] as const) for (const name of await stacks.objects(kind, appName)) await stacks.removeObject(kind, name).catch(() => false);
  await berth.stop();
});

/** A file whose secret and config hold `content`; a `failing` service exits at once, and no restart follows. */
const file = (content: string, failing: boolean) => `services:
  web:
    image: ${TEST_IMAGE}
    secrets: [token]
    configs: [{ source: page, target: /page.txt }]
${failing ? '    command: ["false"]\n    deploy: { restart_policy: { condition: none } }\n' : ''}secrets:
  token: { environment: TOKEN }
configs:
  page: { content: "page \${TOKEN}" }
`;

const deployed = async (content: string, failing: boolean) => {
  await berth.ok('compose.update', { composeId, sourceType: 'raw', composeFile: file(content, failing), env: `TOKEN=${content}` });
  return ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
};

test(`${FAILED_DEPLOYS} failed deploys with new secret contents leave only the running version's secret and config`, { timeout: 60_000 }, async () => {
  const first = await deployed('first', false);
  assert.equal(first.status, 'done', first.reason);
  const kept = { secret: await stacks.objects('secret', appName), config: await stacks.objects('config', appName) };
  assert.deepEqual([kept.secret.length, kept.config.length], [1, 1]);
  for (let i = 0; i < FAILED_DEPLOYS; i += 1) {
    const failed = await deployed(`failed-${i}`, true);
    assert.equal(failed.status, 'error');
  }
  assert.deepEqual(await stacks.objects('secret', appName), kept.secret, 'the secrets of the stack');
  assert.deepEqual(await stacks.objects('config', appName), kept.config, 'the configs of the stack');
});
