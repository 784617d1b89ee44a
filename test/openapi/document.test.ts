// The API document a client generates from: valid OpenAPI 3.1, every operation of the contract
// with its schemas, errors and the Bearer scheme; and the reference page, rendered by a real
// headless Chromium, shows the operations.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { operations } from '@berth/shared/contract/index';
import { listeningBerth, type ListeningBerth } from '../support/http.ts';

const run = promisify(execFile);

describe('the API document and its reference page', () => {
  let server: ListeningBerth;
  let document: any;
  before(async () => {
    server = await listeningBerth();
    const reply = await server.client.raw('/api/openapi.json');
    assert.equal(reply.status, 200);
    document = reply.body;
  });
  after(() => server.stop());

  it('validates against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.equal(validator.version, '3.1');
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
  });

  it('lists every operation of the contract with its input, answer, errors and the Bearer scheme', () => {
    const listed = Object.values(document.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
    assert.deepEqual(listed.sort(), operations.map((operation) => operation.name).sort());
    assert.deepEqual(document.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or API token' });
    const create = document.paths['/api/project.create'].post;
    assert.deepEqual(create.requestBody.content['application/json'].schema.required, ['name']);
    assert.ok(create.responses['200'].content['application/json'].schema.properties.projectId);
    assert.deepEqual(create.security, [{ bearer: [] }]);
    assert.equal(create.responses['400'].content['application/json'].schema.$ref, '#/components/schemas/Error');
    assert.deepEqual(document.paths['/api/auth.login'].post.security, []);
    const history = document.paths['/api/events.all'].get;
    assert.ok(history.parameters.some((parameter: any) => parameter.name === 'cursor' && parameter.in === 'query' && !parameter.required));
  });

  it('renders the reference page in headless Chromium, showing an operation', { timeout: 60_000 }, async () => {
    const profile = mkdtempSync(join(tmpdir(), 'berth-chromium-'));
    try {
      const { stdout } = await run('chromium', [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage',
        '--no-first-run', `--user-data-dir=${profile}`, '--dump-dom', `${server.baseUrl}/api/reference`,
      ], { timeout: 50_000, maxBuffer: 64 * 1024 * 1024 });
      // Only the script puts operation sections in the page: their presence proves it ran.
      assert.match(stdout, /<section class="operation" id="op-project\.create">/);
      assert.match(stdout, /<span class="method post">POST<\/span> <code>\/api\/project\.create<\/code>/);
      assert.match(stdout, /<a href="#op-events\.all">events\.all<\/a>/);
      assert.equal((stdout.match(/<section class="operation"/g) ?? []).length, operations.length);
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
