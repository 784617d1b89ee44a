import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { templates } from '../../templates/catalogue.ts';
import { DomainError } from '../../errors.ts';
import { specOf } from '../testing.ts';
import { composeAggregate, type Compose } from './compose.ts';
import { mustDeployAsAStack } from './deployable.ts';
import { stackSpec } from './stack.ts';

const spec = specOf(composeAggregate);
const stack: Compose = {
  composeId: 'c1', name: 'shop', appName: 'shop-a1b2c3', description: null, env: null, refreshToken: 't1',
  composeFile: '', sourceType: 'raw', composeType: 'stack', repository: null, owner: null, branch: null,
  autoDeploy: null, customGitUrl: null, customGitBranch: null, customGitSSHKey: null, command: '',
  composePath: 'docker-compose.yml', composeStatus: 'idle', projectId: 'p1', createdAt: '2026-01-01T00:00:00.000Z',
  sshPrivateKey: null,
};
const JOB = 'services:\n  web:\n    image: web:1\n    deploy: { mode: replicated-job }\n';
const refusal = (composeFile: string) => {
  try {
    mustDeployAsAStack({ ...stack, composeFile });
    return null;
  } catch (error) {
    assert.ok(error instanceof DomainError);
    assert.deepEqual(error.issues.map((issue) => issue.path), ['composeFile']);
    return error.message;
  }
};

describe('a stack file judged on save', () => {
  it('refuses what the deploy refuses, in the deploy\'s words', () => {
    assert.match(refusal(JOB) ?? '', /replicated-job is not supported in a stack/);
    assert.match(refusal('services:\n  web:\n    stop_grace_period: soon\n') ?? '', /needs an image/);
  });

  it('leaves a value from a variable, a secret from the env and a named file to the deploy', () => {
    assert.equal(refusal('services:\n  web:\n    image: web:1\n    deploy: { mode: "${MODE}", replicas: "${N:?set N}" }\n'), null);
    assert.equal(refusal('services:\n  web:\n    image: web:1\n    env_file: app.env\n    secrets: [a, b]\nsecrets:\n  a: { environment: A }\n  b: { file: b.txt }\n'), null);
  });

  it('still refuses at deploy the value a variable gives', () => {
    const file = 'services:\n  web:\n    image: web:1\n    deploy: { mode: "${MODE}" }\n';
    assert.throws(() => stackSpec(file, { appName: 'shop', env: 'MODE=global-job' }), /global-job is not supported in a stack/);
  });

  it('judges neither the empty text, a file from git, nor a container-compose file', () => {
    assert.equal(refusal(''), null);
    assert.doesNotThrow(() => mustDeployAsAStack({ ...stack, sourceType: 'git', composeFile: JOB }));
    assert.doesNotThrow(() => mustDeployAsAStack({ ...stack, composeType: 'container-compose', composeFile: JOB }));
  });

  it('passes every template\'s file', () => {
    for (const template of templates()) assert.equal(refusal(template.compose), null, template.id);
  });

  it('is judged by create (a template) and by randomize, whose longer names may pass the engine\'s limit', () => {
    spec.given([]).when({ type: 'CreateCompose', data: { ...stack, composeFile: JOB } }).thenFails('BAD_REQUEST', 'composeFile');
    const long = `services:\n  ${'s'.repeat(45)}:\n    image: web:1\n`;
    spec.given([{ type: 'ComposeCreated', data: { ...stack, composeFile: long } }])
      .when({ type: 'RandomizeCompose', data: { composeId: 'c1', suffix: 'abcdef12' } }).thenFails('BAD_REQUEST', 'composeFile');
  });
});
