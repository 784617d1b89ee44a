import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeFileProblem, serviceNames } from './compose-file.ts';

describe('reading a compose file', () => {
  it('accepts the empty file and a file with a services mapping', () => {
    assert.equal(composeFileProblem(''), null);
    assert.equal(composeFileProblem('services:\n  web:\n    image: nginx\n'), null);
  });
  it('refuses text that is not YAML', () => {
    assert.match(composeFileProblem('services: [web\n') ?? '', /not valid YAML/);
  });
  it('refuses YAML that is not a mapping with a services mapping', () => {
    assert.match(composeFileProblem('- web\n') ?? '', /mapping at the top level/);
    assert.match(composeFileProblem('version: "3"\n') ?? '', /"services" mapping/);
    assert.match(composeFileProblem('services: [web]\n') ?? '', /"services" mapping/);
  });
  it('lists the services in file order, and none for an empty file', () => {
    assert.deepEqual(serviceNames('services:\n  web: {}\n  db: {}\n'), ['web', 'db']);
    assert.deepEqual(serviceNames(''), []);
  });
});
