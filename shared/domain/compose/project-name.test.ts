import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeProjectName, projectNameFault } from './project-name.ts';

describe('the compose project name of an appName', () => {
  it('is the appName, as the compose tools keep it', () => {
    assert.equal(composeProjectName('plain-name-92f9a5'), 'plain-name-92f9a5');
  });

  it('is, for an appName saved with a "." before, the name the compose tool made of it', () => {
    assert.equal(composeProjectName('site-v1.2-92f9a5'), 'site-v12-92f9a5');
    assert.equal(composeProjectName('My.App_x-1'), 'myapp_x-1');
  });

  it('refuses an appName with a ".", which would share its project with another', () => {
    assert.match(projectNameFault('a.b') ?? '', /cannot hold "\."/);
    assert.equal(projectNameFault('ab'), null);
  });
});
