// Failure reasons go into the log and the deliveries answer: none may quote a URL's user name or password.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { post, withoutCredentials } from '@berth/reactors/notifications/post';

describe('failure reasons', () => {
  it('leave out the user name and password of every URL they quote, and nothing else', () => {
    assert.equal(withoutCredentials('unreachable: https://bot:p%40ss@ci.example.test:8443/hook?x=1 and http://u@h/'),
      'unreachable: https://ci.example.test:8443/hook?x=1 and http://h/');
    assert.equal(withoutCredentials('answered HTTP 503 from mail@example.test'), 'answered HTTP 503 from mail@example.test');
  });

  it('of a POST fetch refuses for its credentials say why without them', async () => {
    const { ok, status, reason } = await post('http://hookuser:s3cretpw@127.0.0.1:9/hook', '{}', {}, 500);
    assert.deepEqual([ok, status], [false, null]);
    assert.match(reason ?? '', /^unreachable: .*includes credentials: http:\/\/127\.0\.0\.1:9\/hook$/);
  });
});
