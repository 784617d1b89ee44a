import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServiceSpec } from '@berth/shared/ports/container-engine';
import { sightOf, stackSightOf } from './sight.ts';

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
});
