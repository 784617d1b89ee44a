// PARSE_ERROR says the request's body is not JSON: it answers Fastify's reading of that body, never
// a SyntaxError a handler meets (an answer of another service that is not JSON), which is no fault
// of the caller's request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toDomainError } from '@berth/command-api/errors';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('PARSE_ERROR', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  it('answers a request whose body is not JSON', async () => {
    const response = await berth.app.inject({
      method: 'POST', url: '/api/project.create', payload: '{"name": "half',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${berth.token}` },
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 'PARSE_ERROR');
  });

  it('says a valid body holding a prototype key is refused for that key, not that it is not JSON', async () => {
    for (const payload of ['{"name": "p", "__proto__": {"x": 1}}', '{"name": "p", "constructor": {"prototype": {}}}']) {
      const response = await berth.app.inject({
        method: 'POST', url: '/api/project.create', payload,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${berth.token}` },
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual([response.json().code, response.json().message],
        ['BAD_REQUEST', 'The body holds a "__proto__" or "constructor" key, which no operation takes']);
    }
    assert.deepEqual(await berth.ok('project.all', {}), []);
  });

  it('is not what a SyntaxError thrown by a handler answers', () => {
    const mapped = toDomainError(new SyntaxError('Unexpected token \'<\', "<html><bod"... is not valid JSON'));
    assert.equal(mapped.code, 'INTERNAL_SERVER_ERROR');
    assert.doesNotMatch(mapped.message, /body is not valid JSON/);
  });
});
