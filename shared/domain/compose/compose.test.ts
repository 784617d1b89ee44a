import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Sealed } from '../../crypto/secrets.ts';
import { specOf } from '../testing.ts';
import { defaultCommand } from './command.ts';
import { composeAggregate, type Compose, type ComposeEvent } from './compose.ts';

const spec = specOf(composeAggregate);
const created: Compose = {
  composeId: 'c1', name: 'shop', appName: 'shop-a1b2c3', description: null, env: null, refreshToken: 't1',
  composeFile: '', sourceType: 'raw', composeType: 'container-compose', repository: null, owner: null, branch: null,
  autoDeploy: null, customGitUrl: null, customGitBranch: null, customGitSSHKey: null, command: '',
  composePath: 'docker-compose.yml', composeStatus: 'idle', projectId: 'p1', createdAt: '2026-01-01T00:00:00.000Z',
  sshPrivateKey: null,
};
const given = spec.given([{ type: 'ComposeCreated', data: created }]);
const key = { composeId: 'c1', customGitSSHKey: 'ssh-ed25519 AAAA berth', sshPrivateKey: 'enc:v1:x.y.z' as Sealed };
const FILE = 'services:\n  web:\n    image: nginx\n';

describe('compose decider', () => {
  it('creates a compose service once', () => {
    spec.given([]).when({ type: 'CreateCompose', data: created }).then([{ type: 'ComposeCreated', data: created }]);
    given.when({ type: 'CreateCompose', data: created }).thenFails('CONFLICT');
  });
  it('records only what an update changes', () => {
    given.when({ type: 'UpdateCompose', data: { composeId: 'c1', name: 'shop', composeFile: FILE } })
      .then([{ type: 'ComposeUpdated', data: { composeFile: FILE, composeId: 'c1' } }]);
  });
  it('refuses a compose file that is not YAML with a services mapping, naming composeFile', () => {
    given.when({ type: 'UpdateCompose', data: { composeId: 'c1', composeFile: 'services: [' } }).thenFails('BAD_REQUEST', 'composeFile');
    given.when({ type: 'UpdateCompose', data: { composeId: 'c1', composeFile: 'image: nginx\n' } }).thenFails('BAD_REQUEST', 'composeFile');
  });
  it('accepts an emptied compose file', () => {
    spec.given([{ type: 'ComposeCreated', data: { ...created, composeFile: FILE } }])
      .when({ type: 'UpdateCompose', data: { composeId: 'c1', composeFile: '' } })
      .then([{ type: 'ComposeUpdated', data: { composeFile: '', composeId: 'c1' } }]);
  });
  it('removes an SSH key only when there is one', () => {
    given.when({ type: 'RemoveComposeSSHKey', data: { composeId: 'c1' } }).then([]);
    spec.given([{ type: 'ComposeCreated', data: created }, { type: 'ComposeSSHKeyGenerated', data: key }])
      .when({ type: 'RemoveComposeSSHKey', data: { composeId: 'c1' } })
      .then([{ type: 'ComposeSSHKeyRemoved', data: { composeId: 'c1' } }]);
  });
  it('forgets both halves of a removed key', () => {
    const state = [{ type: 'ComposeSSHKeyGenerated', data: key }, { type: 'ComposeSSHKeyRemoved', data: { composeId: 'c1' } }] as const;
    const after = state.reduce(composeAggregate.evolve, composeAggregate.evolve(null, { type: 'ComposeCreated', data: created }));
    assert.equal(after?.customGitSSHKey, null);
    assert.equal(after?.sshPrivateKey, null);
  });
  it('randomizes the stored file with the suffix, and records the new file', () => {
    spec.given([{ type: 'ComposeCreated', data: { ...created, composeFile: FILE } }])
      .when({ type: 'RandomizeCompose', data: { composeId: 'c1', suffix: 'dev' } })
      .then([{ type: 'ComposeRandomized', data: { composeId: 'c1', suffix: 'dev', composeFile: 'services:\n  web-dev:\n    image: nginx\n' } }]);
  });
  it('refuses a suffix that would make names invalid, naming prefix', () => {
    given.when({ type: 'RandomizeCompose', data: { composeId: 'c1', suffix: 'a b' } }).thenFails('BAD_REQUEST', 'prefix');
  });
  it('records the services and host ports a fetched file names when they differ from the last fetch, and nothing once deleted', () => {
    const fetched = (services: string[], ports: string[]) => ({ composeId: 'c1', services, ports });
    const found: ComposeEvent = { type: 'ComposeFileFetched', data: fetched(['web', 'db'], ['8080/tcp']) };
    given.when({ type: 'RecordFetchedFile', data: fetched(['web', 'db'], ['8080/tcp']) }).then([found]);
    spec.given([{ type: 'ComposeCreated', data: created }, found])
      .when({ type: 'RecordFetchedFile', data: fetched(['web', 'db'], ['8080/tcp']) }).then([]);
    spec.given([{ type: 'ComposeCreated', data: created }, found])
      .when({ type: 'RecordFetchedFile', data: fetched(['web'], ['8080/tcp']) })
      .then([{ type: 'ComposeFileFetched', data: fetched(['web'], ['8080/tcp']) }]);
    spec.given([{ type: 'ComposeCreated', data: created }, found])
      .when({ type: 'RecordFetchedFile', data: fetched(['web', 'db'], []) })
      .then([{ type: 'ComposeFileFetched', data: fetched(['web', 'db'], []) }]);
    spec.given([{ type: 'ComposeCreated', data: created }, { type: 'ComposeRemoved', data: { composeId: 'c1' } }])
      .when({ type: 'RecordFetchedFile', data: fetched(['web'], []) }).then([]);
    const after = composeAggregate.evolve(composeAggregate.evolve(null, { type: 'ComposeCreated', data: created }), found);
    assert.deepEqual([after?.fetchedServices, after?.publishedPorts], [['web', 'db'], ['8080/tcp']]);
  });
  it('answers NOT_FOUND naming composeId once the service is removed', () => {
    spec.given([{ type: 'ComposeCreated', data: created }, { type: 'ComposeRemoved', data: { composeId: 'c1' } }])
      .when({ type: 'RefreshComposeToken', data: { composeId: 'c1', refreshToken: 't2' } }).thenFails('NOT_FOUND', 'composeId');
  });
});

describe('default compose command', () => {
  it('runs a compose project named after the appName, or deploys a stack', () => {
    assert.equal(defaultCommand(created), 'docker compose -p shop-a1b2c3 -f docker-compose.yml up -d --build --remove-orphans');
    assert.equal(defaultCommand({ ...created, composeType: 'stack', composePath: 'deploy/stack.yml' }),
      'docker stack deploy -c deploy/stack.yml shop-a1b2c3 --prune --with-registry-auth');
  });
  it('quotes a path the shell would split', () => {
    assert.equal(defaultCommand({ ...created, composePath: 'my app.yml' }),
      "docker compose -p shop-a1b2c3 -f 'my app.yml' up -d --build --remove-orphans");
  });
  describe('removal begun', () => {
    const begun: ComposeEvent = { type: 'ComposeRemovalBegun', data: { composeId: 'c1', projectId: 'p1' } };
    it('marks the removal once, and refuses it naming projectId when the service has moved out of the project', () => {
      given.when({ type: 'BeginRemoval', data: { composeId: 'c1', projectId: 'p1' } }).then([begun]);
      spec.given([{ type: 'ComposeCreated', data: created }, begun]).when({ type: 'BeginRemoval', data: { composeId: 'c1' } }).then([]);
      spec.given([{ type: 'ComposeCreated', data: created }, { type: 'ComposeUpdated', data: { composeId: 'c1', projectId: 'p2' } }])
        .when({ type: 'BeginRemoval', data: { composeId: 'c1', projectId: 'p1' } }).thenFails('CONFLICT', 'projectId');
    });
    it('refuses changes after the mark naming composeId, and lets the removal and the reactors\' reports through', () => {
      const marked = spec.given([{ type: 'ComposeCreated', data: created }, begun]);
      marked.when({ type: 'UpdateCompose', data: { composeId: 'c1', projectId: 'p2' } }).thenFails('CONFLICT', 'composeId');
      marked.when({ type: 'RandomizeCompose', data: { composeId: 'c1', suffix: 'x1' } }).thenFails('CONFLICT', 'composeId');
      marked.when({ type: 'RemoveCompose', data: { composeId: 'c1' } }).then([{ type: 'ComposeRemoved', data: { composeId: 'c1' } }]);
      marked.when({ type: 'RecordFetchedFile', data: { composeId: 'c1', services: ['web'], ports: [] } })
        .then([{ type: 'ComposeFileFetched', data: { composeId: 'c1', services: ['web'], ports: [] } }]);
    });
  });
});
