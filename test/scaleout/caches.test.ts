// The folded-state cache is the embedded mode's alone: scaled out, the API and the reactors'
// reports decide on the log read afresh, since another process may have appended since.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configFrom } from '@berth/shared/runtime/config';
import { processStateCache } from '@berth/shared/runtime/state-cache';

describe('folded-state cache by mode', () => {
  const eventStore = {};
  it('is one per event store, shared by the API and the reactors, in the embedded mode', () => {
    const config = configFrom({ BERTH_DATA_DIR: '/tmp/unused' });
    assert.ok(processStateCache({ config, eventStore }));
    assert.equal(processStateCache({ config, eventStore }), processStateCache({ config, eventStore }));
  });
  it('is off when the log or the read models are on shared servers', () => {
    for (const env of [{ BERTH_EVENTSTORE_URL: 'esdb://x:2113' }, { BERTH_MONGO_URL: 'mongodb://x/db' }]) {
      assert.equal(processStateCache({ config: configFrom({ BERTH_DATA_DIR: '/tmp/unused', ...env }), eventStore }), undefined);
    }
  });
});
