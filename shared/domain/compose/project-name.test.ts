import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeProjectName } from './project-name.ts';

describe('the compose project name of an appName', () => {
  it('is the name the compose tools label with: lowercase, only [a-z0-9_-], no leading "_" or "-"', () => {
    assert.equal(composeProjectName('site-v1.2-92f9a5'), 'site-v12-92f9a5');
    assert.equal(composeProjectName('My.App_x-1'), 'myapp_x-1');
    assert.equal(composeProjectName('_.a'), 'a');
    assert.equal(composeProjectName('plain-name'), 'plain-name');
  });
});
