import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appNameOfContainer } from './project-of-container.ts';

const SOURCES = '/data/sources';
const labels = (project: string, dir: string) => ({ 'com.docker.compose.project': project, 'com.docker.compose.project.working_dir': dir });

describe('the compose service of a container event', () => {
  it('is the folder under the sources that Berth ran the tool in', () => {
    assert.equal(appNameOfContainer(labels('site-1a2b', `${SOURCES}/site-1a2b/source/deploy`), SOURCES), 'site-1a2b');
    assert.equal(appNameOfContainer(labels('site-v12-9f', `${SOURCES}/site-v1.2-9f/raw`), SOURCES), 'site-v1.2-9f');
  });
  it('is none for an operator\'s project, a project of another name, or a container without the labels', () => {
    assert.equal(appNameOfContainer(labels('site-1a2b', '/home/op/site'), SOURCES), null);
    assert.equal(appNameOfContainer(labels('other', `${SOURCES}/site-1a2b`), SOURCES), null);
    assert.equal(appNameOfContainer(labels('site', `${SOURCES}-old/site`), SOURCES), null);
    assert.equal(appNameOfContainer({}, SOURCES), null);
  });
});
