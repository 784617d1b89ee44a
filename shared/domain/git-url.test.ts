import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowedGitProtocols, isLocalGitUrl } from './git-url.ts';

describe('a git source on this host', () => {
  it('is a path, or a file: URL in any case or form, as git reads them', () => {
    for (const url of ['/srv/repo', './repo', 'repo', '../a:b', '~/repo', 'file:///srv/repo', 'FILE:///srv/repo', 'File://host/x', 'file:/x', 'file::/x']) {
      assert.equal(isLocalGitUrl(url), true, url);
    }
  });

  it('is not a network URL, an ssh address, or nothing', () => {
    for (const url of ['https://host/x.git', 'HTTP://host/x', 'ssh://git@host/x', 'git://host/x', 'git@host:x.git', 'host:x.git', '[::1]:x', 'git@host:/abs/x', '']) {
      assert.equal(isLocalGitUrl(url), false, url);
    }
  });

  it('is the only kind a clone may reach through git\'s file transport', () => {
    assert.equal(allowedGitProtocols('https://host/x.git'), 'https:http:ssh:git');
    assert.equal(allowedGitProtocols('/srv/repo'), 'https:http:ssh:git:file');
  });
});
