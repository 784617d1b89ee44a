// A `raw` stack's file is judged on save as its deploy would judge it: a fault that needs no env
// (a job mode, a missing image, a bad duration...) is refused with a 400 naming composeFile and
// appends nothing; a value that interpolates a variable is left to the deploy, which has the env.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

const web = (lines: string, top = '') => `services:\n  web:\n    image: web:1\n${lines}${top}`;

/** Each fault a stack deploy refuses, written as a literal, with what the refusal says. */
const FAULTS: Array<[string, string, RegExp]> = [
  ['a replicated-job', web('    deploy: { mode: replicated-job }\n'), /services\.web\.deploy\.mode replicated-job is not supported in a stack/],
  ['a global-job', web('    deploy: { mode: global-job }\n'), /global-job is not supported in a stack/],
  ['an unknown mode', web('    deploy: { mode: sometimes }\n'), /deploy\.mode must be replicated or global/],
  ['replicas with global', web('    deploy: { mode: global, replicas: 2 }\n'), /replicas cannot be used with deploy\.mode global/],
  ['replicas not a number', web('    deploy: { replicas: three }\n'), /replicas must be a whole number/],
  ['no image', 'services:\n  web:\n    command: httpd\n', /services\.web: needs an image/],
  ['a bad duration', web('    healthcheck: { test: "true", interval: soon }\n'), /healthcheck\.interval: "soon" is not a duration/],
  ['a bad size', web('    deploy: { resources: { limits: { memory: lots } } }\n'), /"lots" is not a size/],
  ['a relative bind', web('    volumes: ["./data:/data"]\n'), /the bind "\.\/data" is not an absolute path/],
  ['an undeclared volume', web('    volumes: ["data:/data"]\n'), /volume "data" is not declared under volumes/],
  ['an undeclared network', web('    networks: [back]\n'), /network "back" is not declared under networks/],
  ['a bad port', web('    ports: ["8080:80/http"]\n'), /has the protocol "http"/],
  ['an undeclared secret', web('    secrets: [token]\n'), /secret "token" is not declared under secrets/],
  ['a secret without content', web('', 'secrets:\n  token: {}\n'), /secrets\.token: needs "file", "environment" or "external: true"/],
  ['a bad file mode', web('    secrets: [{ source: token, mode: rw }]\n', 'secrets:\n  token: { external: true }\n'), /mode "rw" is not a file mode/],
  ['a bad ulimit', web('    ulimits: { nofile: { soft: many, hard: 10 } }\n'), /ulimits\.nofile: needs whole numbers/],
  ['a name too long', `services:\n  ${'s'.repeat(60)}:\n    image: web:1\n`, /more than the engine's 63/],
  ['a broken interpolation', web('    environment: { A: "${" }\n'), /invalid interpolation format/],
];

/** The same faults' values given by a variable: only the deploy, with the env, can judge them. */
const INTERPOLATED = [
  web('    deploy: { mode: "${MODE}" }\n'),
  web('    deploy: { replicas: "${REPLICAS}" }\n'),
  'services:\n  web:\n    image: "${IMAGE}"\n',
  web('    healthcheck: { test: "true", interval: "${INTERVAL}" }\n'),
  web('    deploy: { resources: { limits: { memory: "${MEMORY}" } } }\n'),
  web('    volumes: ["${DATA}:/data"]\n'),
  web('    networks: ["${NETWORK}"]\n'),
  web('    ports: ["${PORT}:80"]\n'),
  web('    secrets: ["${SECRET}"]\n'),
  web('    ulimits: { nofile: { soft: "${SOFT}", hard: 10 } }\n'),
  web('    environment: { A: "${REQUIRED:?is needed}" }\n'),
  // Read from the env, which is not opened on save.
  web('    secrets: [token]\n', 'secrets:\n  token: { environment: TOKEN }\n'),
];

describe('a stack\'s file is checked on save for what its deploy would refuse', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'stack file on save' }));
  });
  after(() => berth.stop());

  const created = (composeType: string, name = 'file') => berth.ok('compose.create', { name, projectId, composeType });

  it('refuses each fault a stack deploy would refuse, naming composeFile and the fault, changing nothing', async () => {
    const { composeId } = await created('stack');
    for (const [what, composeFile, fault] of FAULTS) {
      const body = await berth.refused('compose.update', { composeId, composeFile }, 400, 'composeFile');
      assert.match(body.message, /^composeFile /, what);
      assert.match(body.message, fault, what);
    }
    assert.equal((await berth.ok('compose.one', { composeId })).composeFile, '');
  });

  it('accepts the same faults when their values come from variables: the deploy judges them with the env', async () => {
    const { composeId } = await created('stack');
    for (const composeFile of INTERPOLATED) {
      assert.equal((await berth.ok('compose.update', { composeId, composeFile })).composeFile, composeFile);
    }
  });

  it('accepts a valid stack', async () => {
    const { composeId } = await created('stack');
    const composeFile = web('    deploy: { replicas: 2, resources: { limits: { memory: 64M } } }\n    healthcheck: { test: "true", interval: 5s }\n    ports: ["8080:80"]\n    volumes: ["data:/data"]\n', 'volumes:\n  data: {}\n');
    assert.equal((await berth.ok('compose.update', { composeId, composeFile })).composeFile, composeFile);
  });

  it('accepts a replicated-job in a container-compose file: the compose tool runs it', async () => {
    const { composeId } = await created('container-compose');
    const composeFile = web('    deploy: { mode: replicated-job }\n');
    assert.equal((await berth.ok('compose.update', { composeId, composeFile })).composeFile, composeFile);
  });

  it('refuses turning a saved file that a stack refuses into a stack, and a rename that makes its services\' names too long', async () => {
    const { composeId } = await created('container-compose');
    await berth.ok('compose.update', { composeId, composeFile: web('    deploy: { mode: replicated-job }\n') });
    const body = await berth.refused('compose.update', { composeId, composeType: 'stack' }, 400, 'composeFile');
    assert.match(body.message, /replicated-job is not supported in a stack/);
    assert.equal((await berth.ok('compose.one', { composeId })).composeType, 'container-compose');

    const stack = await created('stack', 'rename');
    await berth.ok('compose.update', { composeId: stack.composeId, composeFile: `services:\n  ${'s'.repeat(40)}:\n    image: web:1\n` });
    const renamed = await berth.refused('compose.update', { composeId: stack.composeId, appName: 'a'.repeat(30) }, 400, 'composeFile');
    assert.match(renamed.message, /more than the engine's 63/);
  });

  it('leaves a file from git to its deploy: the repository can change it', async () => {
    const { composeId } = await created('stack');
    const saved = await berth.ok('compose.update', {
      composeId, sourceType: 'git', customGitUrl: 'https://example.test/a.git', customGitBranch: 'main', composeFile: web('    deploy: { mode: replicated-job }\n'),
    });
    assert.equal(saved.sourceType, 'git');
  });
});
