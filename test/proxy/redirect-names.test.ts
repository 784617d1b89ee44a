// A redirect's middleware is named by the redirect's id, so removing one redirect renames no other:
// a router the user wrote that names one keeps finding it. A file written when they were numbered
// (`<app>-redirect-2`) names the redirect by its content; a user's router that still uses the
// numbered name is re-pointed to that redirect's id, and stays so on every later rewrite.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { proxyFileOf, type ProxyInputs } from '@berth/reactors/proxy/generate';
import { proxyStructureFault } from '@berth/shared/domain/application/proxy-schema';
import { mustNameOnlyExistingRedirects } from '@berth/shared/domain/application/proxy-redirect-refs';
import { DomainError } from '@berth/shared/errors';

const a = { redirectId: 'Ra_1-x', regex: '^http://a\\.test/(.*)', replacement: 'https://a.test/${1}', permanent: true };
const b = { redirectId: 'Rb_2-y', regex: '^http://b\\.test/(.*)', replacement: 'https://b.test/${1}', permanent: true };
const userConfig = (middleware: string) => `http:
  routers:
    other:
      rule: Host(\`b.test\`)
      service: mysvc
      middlewares: [${middleware}]
  services:
    mysvc:
      loadBalancer:
        servers:
          - url: http://shop:8080
`;
const inputs = (fields: Partial<ProxyInputs>): ProxyInputs => ({
  applicationId: 'a1', appName: 'shop', formerAppNames: [], userConfig: null, targetPort: 8080, redirects: [a, b],
  users: [], certificatePaths: [], proxyDir: '/proxy', previousFile: null, ...fields,
});
const dangling = (file: { http: { routers: Record<string, { middlewares?: string[] }>; middlewares?: Record<string, unknown> } }) =>
  Object.values(file.http.routers).flatMap((router) => router.middlewares ?? []).filter((name) => !(name in (file.http.middlewares ?? {})));

describe('redirect middlewares named by the redirect\'s id', () => {
  it('names each redirect\'s middleware <appName>-redirect-<redirectId>', () => {
    const file = parse(proxyFileOf(inputs({})));
    assert.deepEqual(Object.keys(file.http.middlewares), ['shop-redirect-Ra_1-x', 'shop-redirect-Rb_2-y']);
    assert.equal(proxyStructureFault(file), null);
  });

  it('keeps the second redirect\'s name when the first is removed, so a user\'s router naming it does not dangle', () => {
    const config = userConfig('shop-redirect-Rb_2-y');
    const before = parse(proxyFileOf(inputs({ userConfig: config })));
    assert.deepEqual(dangling(before), []);
    const after = parse(proxyFileOf(inputs({ userConfig: config, redirects: [b] })));
    assert.deepEqual(after.http.routers.other.middlewares, ['shop-redirect-Rb_2-y']);
    assert.deepEqual(dangling(after), []);
  });

  it('re-points a numbered name from a file written before, by the redirect the old file defined under it, on every later rewrite', () => {
    const oldFile = '# The proxy\'s dynamic configuration of shop (application a1), written by Berth.\nhttp:\n  middlewares:\n'
      + `    shop-redirect-1:\n      redirectRegex: { regex: '${a.regex}', replacement: 'https://a.test/\${1}', permanent: true }\n`
      + `    shop-redirect-2:\n      redirectRegex: { regex: '${b.regex}', replacement: 'https://b.test/\${1}', permanent: true }\n`;
    const config = userConfig('shop-redirect-2');
    // The first rewrite after the upgrade is the removal of the first redirect.
    const first = proxyFileOf(inputs({ userConfig: config, redirects: [b], previousFile: oldFile }));
    assert.deepEqual(parse(first).http.routers.other.middlewares, ['shop-redirect-Rb_2-y']);
    // Later rewrites no longer have the numbered file, and the redirect's content may change.
    const changed = { ...b, regex: '^http://bb\\.test/(.*)' };
    const second = proxyFileOf(inputs({ userConfig: config, redirects: [changed], previousFile: first }));
    const third = parse(proxyFileOf(inputs({ userConfig: config, redirects: [a, changed], previousFile: second })));
    assert.deepEqual(third.http.routers.other.middlewares, ['shop-redirect-Rb_2-y']);
    assert.deepEqual(dangling(third), []);
    assert.equal(proxyStructureFault(third), null);
  });
});

describe('a saved configuration naming redirect middlewares', () => {
  const refused = (text: string, fault: RegExp) => assert.throws(() => mustNameOnlyExistingRedirects(text, 'shop', [a.redirectId, b.redirectId]),
    (error: unknown) => error instanceof DomainError && error.code === 'BAD_REQUEST' && error.issues[0]?.path === 'proxyConfig' && fault.test(error.message));
  it('refuses a numbered or unknown redirect name, saying which names the redirects have', () => {
    refused(userConfig('shop-redirect-2'), /http\.routers\.other uses the middleware shop-redirect-2, which no redirect of this application has .*shop-redirect-Ra_1-x, shop-redirect-Rb_2-y$/);
    refused(userConfig('shop-redirect-gone@file'), /shop-redirect-gone@file/);
  });
  it('accepts the names its redirects have, with or without @file, and other applications\' names', () => {
    mustNameOnlyExistingRedirects(userConfig('shop-redirect-Rb_2-y@file'), 'shop', [a.redirectId, b.redirectId]);
    mustNameOnlyExistingRedirects(userConfig('bank-redirect-2'), 'shop', []);
  });
});
