import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { removeLeftKeys } from './source-git.ts';

describe('the keys a killed clone left', () => {
  it('removes every source folder\'s key file and nothing else, and takes a missing sources folder in its stride', async () => {
    const sources = mkdtempSync(join(tmpdir(), 'berth-sources-'));
    try {
      for (const app of ['shop', 'blog']) {
        mkdirSync(join(sources, app, 'source'), { recursive: true });
        writeFileSync(join(sources, app, 'ssh-key'), '-----BEGIN OPENSSH PRIVATE KEY-----\n', { mode: 0o600 });
        writeFileSync(join(sources, app, 'source', 'index.html'), 'kept\n');
      }
      await removeLeftKeys(sources);
      for (const app of ['shop', 'blog']) {
        assert.equal(existsSync(join(sources, app, 'ssh-key')), false);
        assert.equal(existsSync(join(sources, app, 'source', 'index.html')), true);
      }
      await removeLeftKeys(join(sources, 'none'));
    } finally {
      rmSync(sources, { recursive: true, force: true });
    }
  });
});
