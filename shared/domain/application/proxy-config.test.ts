import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../errors.ts';
import { checkProxyConfig, mustNotClashWithOthers } from './proxy-config.ts';

const bank = { appName: 'bank-def456', proxyConfig: 'http:\n  routers:\n    web:\n      rule: Host(`bank.test`)\n      service: bank-def456-service\n' };
const refusedFor = (text: string, fault: RegExp, code = 'BAD_REQUEST') => assert.throws(() => mustNotClashWithOthers(text, [bank]),
  (error: unknown) => error instanceof DomainError && error.code === code && error.issues[0]?.path === 'proxyConfig' && fault.test(error.message));

describe('a proxy configuration among the other applications\'', () => {
  it('refuses the service or basic-auth middleware Berth writes for another application', () => {
    refusedFor('http:\n  services:\n    bank-def456-service:\n      loadBalancer:\n        servers: [{url: "http://evil:80"}]\n',
      /http\.services\.bank-def456-service: the name is reserved for the service Berth writes for application bank-def456 from its ports; leave this entry out of the configuration you save, and give your own routers, middlewares and services other names$/);
    refusedFor('http:\n  middlewares:\n    bank-def456-auth:\n      basicAuth:\n        users: ["me:x"]\n', /bank-def456-auth: .*basic-auth middleware Berth writes for application bank-def456 from its security users; leave this entry out/);
    refusedFor('http:\n  middlewares:\n    bank-def456-redirect-1:\n      redirectScheme:\n        scheme: https\n', /bank-def456-redirect-1: .*redirect middlewares Berth writes for application bank-def456 from its redirects; leave this entry out/);
  });
  it('says to leave out its own entries that Berth writes, as the proxy\'s file holds them', () => {
    const own = 'http:\n  routers:\n    web:\n      rule: Host(`bank.test`)\n      service: bank-def456-service\n'
      + '  services:\n    bank-def456-service:\n      loadBalancer:\n        servers: [{url: "http://bank-def456:80"}]\n';
    assert.throws(() => checkProxyConfig(own, 'bank-def456'), (error: unknown) => error instanceof DomainError && error.code === 'BAD_REQUEST'
      && error.issues[0]?.path === 'proxyConfig'
      && error.message === 'proxyConfig http.services.bank-def456-service: the name is reserved for the service Berth writes for application bank-def456 from its ports; '
        + 'leave this entry out of the configuration you save (Berth writes it itself) and keep only your own routers, middlewares and services');
  });
  it('refuses a name another application\'s configuration defines of the same kind', () => {
    refusedFor('http:\n  routers:\n    web:\n      rule: Host(`shop.test`)\n      service: s\n', /http\.routers\.web: another application's proxy configuration already defines this name/, 'CONFLICT');
  });
  it('accepts the same name of another kind or protocol, a reference to another application\'s names, and any name beside an unreadable configuration', () => {
    mustNotClashWithOthers('tcp:\n  routers:\n    web:\n      rule: HostSNI(`*`)\n      service: s\n  services:\n    web:\n      loadBalancer:\n        servers: [{address: "x:1"}]\n', [bank]);
    mustNotClashWithOthers('http:\n  routers:\n    shop:\n      rule: Host(`shop.test`)\n      service: bank-def456-service@file\n', [bank]);
    mustNotClashWithOthers('http:\n  routers:\n    web:\n      rule: Host(`shop.test`)\n      service: s\n', [{ appName: 'old', proxyConfig: 'http: [' }, { appName: 'none', proxyConfig: null }]);
  });
  it('leaves text that does not parse to the decider, which names why', () => {
    mustNotClashWithOthers('http: [unclosed', [bank]);
  });
});
