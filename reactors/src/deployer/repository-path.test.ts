import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { insideRepository } from './repository-path.ts';

describe('a path named inside a repository', () => {
  // Real, so that answers compare as paths (a temporary folder may itself be reached through a link).
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'berth-repository-path-')));
  const repo = join(base, 'repo');
  const outside = join(base, 'outside');
  mkdirSync(join(repo, 'web', 'static'), { recursive: true });
  mkdirSync(join(repo, '..dots'));
  mkdirSync(outside);
  writeFileSync(join(outside, 'instance.key'), 'secret');
  symlinkSync(outside, join(repo, 'out'));
  symlinkSync(join(outside, 'instance.key'), join(repo, 'compose.yml'));
  symlinkSync(join(repo, 'web'), join(repo, 'site'));
  after(() => rmSync(base, { recursive: true, force: true }));

  it('resolves to the real path inside, links within the repository included', async () => {
    assert.equal(await insideRepository(repo, 'web/static', 'build path'), join(repo, 'web', 'static'));
    assert.equal(await insideRepository(repo, '/web/../web', 'build path'), join(repo, 'web'));
    assert.equal(await insideRepository(repo, 'site/static', 'build path'), join(repo, 'web', 'static'));
    assert.equal(await insideRepository(repo, '..dots', 'build path'), join(repo, '..dots'));
    assert.equal(await insideRepository(repo, '.', 'build path'), repo);
  });

  it('refuses a path that climbs out, one that is missing, and one that a link leads out', async () => {
    await assert.rejects(insideRepository(repo, '../outside', 'build path'), /the build path "..\/outside" leaves the repository/);
    await assert.rejects(insideRepository(repo, 'web/../../outside', 'build path'), /leaves the repository/);
    await assert.rejects(insideRepository(repo, 'nowhere', 'build path'), /the build path "nowhere" is not in the repository/);
    await assert.rejects(insideRepository(repo, 'out', 'build path'), /the build path "out" leads out of the repository through a symbolic link/);
    await assert.rejects(insideRepository(repo, 'compose.yml', 'compose file'), /the compose file "compose.yml" leads out of the repository/);
  });
});
