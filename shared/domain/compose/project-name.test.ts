import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appNameOfProject, composeProjectName } from './project-name.ts';

describe('the compose project name of an appName', () => {
  it('is a name the compose tools keep as it is: lowercase, only [a-z0-9_-], no leading "_" or "-"', () => {
    assert.equal(composeProjectName('site-v1.2-92f9a5'), 'site-v1_2-92f9a5');
    assert.equal(composeProjectName('My.App-x-1'), 'my_app-x-1');
    assert.equal(composeProjectName('.a'), 'a');
    assert.equal(composeProjectName('plain-name'), 'plain-name');
  });

  it('is one project per appName, and names its appName back', () => {
    for (const appName of ['a.b', 'ab', 'a-b', 'site-v1.2-92f9a5', 'x.y.z']) {
      assert.equal(appNameOfProject(composeProjectName(appName)), appName);
    }
    assert.notEqual(composeProjectName('a.b'), composeProjectName('ab'));
  });
});
