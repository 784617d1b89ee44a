// The tools a deployment runs see the environment they need, never Berth's own secrets: the
// compose tool interpolates a user's file from it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTool, toolEnvironment } from './process.ts';

const NO_SIGNAL = new AbortController().signal;

describe('the environment of the tools a deployment runs', () => {
  it('holds the run\'s own variables and what finds programs, but not Berth\'s settings', async () => {
    process.env.BERTH_INSTANCE_KEY = 'instance-key-that-must-not-leak';
    process.env.AWS_SECRET_ACCESS_KEY = 'another-secret';
    try {
      const output = await runTool('sh', ['-c', 'echo "[$BERTH_INSTANCE_KEY][$AWS_SECRET_ACCESS_KEY][$GIVEN][${PATH:+path}]"'], {
        env: { GIVEN: 'given' }, signal: NO_SIGNAL, log: () => {}, quiet: true,
      });
      assert.equal(output.trim(), '[][][given][path]');
    } finally {
      delete process.env.BERTH_INSTANCE_KEY;
      delete process.env.AWS_SECRET_ACCESS_KEY;
    }
  });

  it('lets what the run gives win over what it inherits', () => {
    assert.deepEqual(toolEnvironment({ HOME: '/work', X: '1' }, { HOME: '/root', PATH: '/bin', BERTH_DATA_DIR: '/data' }),
      { HOME: '/work', PATH: '/bin', X: '1' });
  });
});
