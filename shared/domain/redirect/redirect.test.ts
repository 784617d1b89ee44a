import { describe, it } from 'node:test';
import { specOf } from '../testing.ts';
import { redirectAggregate, type Redirect } from './redirect.ts';

const spec = specOf(redirectAggregate);
const redirect: Redirect = {
  redirectId: 'r1', regex: '^http://(.*)', replacement: 'https://$1', permanent: true, applicationId: 'a1', createdAt: '2026-01-01T00:00:00.000Z',
};
const created = { type: 'RedirectCreated', data: redirect } as const;

describe('redirect decider', () => {
  it('creates a redirect whose regex compiles', () => {
    spec.given([]).when({ type: 'CreateRedirect', data: redirect }).then([created]);
  });
  it('refuses a regex that does not compile, naming regex', () => {
    spec.given([]).when({ type: 'CreateRedirect', data: { ...redirect, regex: '([a-z' } }).thenFails('BAD_REQUEST', 'regex');
    spec.given([created]).when({ type: 'UpdateRedirect', data: { redirectId: 'r1', regex: '*', replacement: 'x', permanent: false } })
      .thenFails('BAD_REQUEST', 'regex');
  });
  it('judges the regex as the proxy (Go, RE2) compiles it, not as JavaScript does', () => {
    for (const regex of ['^https?://(?=www)(.*)', '^/(a)\\1', '^/(?<!x)foo', '^/foo\\Z']) {
      spec.given([]).when({ type: 'CreateRedirect', data: { ...redirect, regex } }).thenFails('BAD_REQUEST', 'regex');
      spec.given([created]).when({ type: 'UpdateRedirect', data: { redirectId: 'r1', regex, replacement: 'x', permanent: true } })
        .thenFails('BAD_REQUEST', 'regex');
    }
    for (const regex of ['(?i)^http://Old\\.test/(.*)', '(?s)^/a.*', '^/(?P<rest>.*)']) {
      spec.given([]).when({ type: 'CreateRedirect', data: { ...redirect, regex } }).then([{ type: 'RedirectCreated', data: { ...redirect, regex } }]);
    }
  });
  it('refuses a line or paragraph separator or a control character in the regex or the replacement, naming the field', () => {
    for (const breaking of ['\u2028', '\u2029', '\u0085', '\n', '\u0007']) {
      spec.given([]).when({ type: 'CreateRedirect', data: { ...redirect, regex: `^/a${breaking}b` } }).thenFails('BAD_REQUEST', 'regex');
      spec.given([]).when({ type: 'CreateRedirect', data: { ...redirect, replacement: `/c${breaking}` } }).thenFails('BAD_REQUEST', 'replacement');
      spec.given([created]).when({ type: 'UpdateRedirect', data: { redirectId: 'r1', regex: redirect.regex, replacement: `/c${breaking}`, permanent: true } })
        .thenFails('BAD_REQUEST', 'replacement');
    }
  });
  it('records only what an update changes', () => {
    spec.given([created]).when({ type: 'UpdateRedirect', data: { redirectId: 'r1', regex: redirect.regex, replacement: redirect.replacement, permanent: false } })
      .then([{ type: 'RedirectUpdated', data: { redirectId: 'r1', permanent: false } }]);
  });
  it('answers NOT_FOUND naming redirectId for one that was removed', () => {
    spec.given([created, { type: 'RedirectRemoved', data: { redirectId: 'r1' } }]).when({ type: 'RemoveRedirect', data: { redirectId: 'r1' } })
      .thenFails('NOT_FOUND', 'redirectId');
  });
});
