// The instance key as a swarm hands it over: a secret mounted as a file, named by BERTH_INSTANCE_KEY_FILE.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { configFrom } from './config.ts';

describe('the instance key from a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-config-'));
  const key = Buffer.alloc(32, 7).toString('base64');

  it('is read from the file BERTH_INSTANCE_KEY_FILE names, without its trailing newline', () => {
    writeFileSync(join(dir, 'secret'), `${key}\n`);
    assert.equal(configFrom({ BERTH_INSTANCE_KEY_FILE: join(dir, 'secret') }).instanceKey, key);
  });

  it('gives way to BERTH_INSTANCE_KEY itself', () => {
    assert.equal(configFrom({ BERTH_INSTANCE_KEY: 'direct', BERTH_INSTANCE_KEY_FILE: join(dir, 'absent') }).instanceKey, 'direct');
  });

  it('refuses to start on a file that cannot be read, naming the variable and the path', () => {
    assert.throws(() => configFrom({ BERTH_INSTANCE_KEY_FILE: join(dir, 'absent') }),
      (error: Error) => error.message.startsWith(`BERTH_INSTANCE_KEY_FILE: cannot read ${join(dir, 'absent')}`));
  });
});
