import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServiceSpec } from '@berth/shared/ports/container-engine';
import { endedOnItsOwn, projectSightOf, sightOf, stackSightOf } from './sight.ts';

const spec = (Mode?: object): ServiceSpec => ({ Name: 's', TaskTemplate: { ContainerSpec: { Image: 'i' } }, ...(Mode && { Mode }) });

describe('engine sight', () => {
  it('sees a missing service, one scaled to 0, and one wanting tasks', () => {
    assert.equal(sightOf(null), 'missing');
    assert.equal(sightOf(spec({ Replicated: { Replicas: 0 } })), 'no-replicas');
    assert.equal(sightOf(spec({ Replicated: { Replicas: 2 } })), 'replicas');
    assert.equal(sightOf(spec({ Global: {} })), 'replicas');
    assert.equal(sightOf(spec({ ReplicatedJob: {} })), 'replicas');
  });
  it('sees a stack changed when any of its services is', () => {
    assert.equal(stackSightOf(['replicas', 'replicas']), 'replicas');
    assert.equal(stackSightOf(['replicas', 'no-replicas']), 'no-replicas');
    assert.equal(stackSightOf(['no-replicas', 'missing']), 'missing');
  });
  it('sees a compose project by the containers of each service it runs', () => {
    const container = (service: string, state: string) => ({ state, labels: { 'com.docker.compose.service': service } });
    assert.equal(projectSightOf([container('web', 'running'), container('side', 'exited'), container('side', 'restarting')]), 'replicas',
      'restarting by its policy: still wanted up');
    assert.equal(projectSightOf([container('web', 'running'), container('side', 'exited')]), 'no-replicas');
    assert.equal(projectSightOf([container('web', 'running')]), 'replicas', 'a service of the file `up` left out counts for nothing');
    assert.equal(projectSightOf([container('web', 'created')]), 'no-replicas');
    assert.equal(projectSightOf([]), 'missing');
    const finished = { ...container('migrate', 'exited'), finished: true };
    assert.equal(projectSightOf([container('web', 'running'), finished]), 'replicas', 'a one-off that did its work is no change');
    assert.equal(projectSightOf([finished]), 'replicas');
  });
  it('takes a stopped container for one that ended on its own only without a policy that restarts it, after a clean exit', () => {
    assert.equal(endedOnItsOwn('no', 0), true);
    assert.equal(endedOnItsOwn('on-failure', 0), true);
    assert.equal(endedOnItsOwn(undefined, 0), true);
    assert.equal(endedOnItsOwn('no', 137), false, 'killed, or failed');
    assert.equal(endedOnItsOwn('always', 0), false, 'only a hand stops it for good');
    assert.equal(endedOnItsOwn('unless-stopped', 0), false);
  });
});
