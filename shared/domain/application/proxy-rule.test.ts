import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../errors.ts';
import { checkProxyConfig } from './proxy-config.ts';

// Rules go through checkProxyConfig, as updateProxyConfig sends them.
const config = (rule: string, extra = '', section = 'http') =>
  `${section}:\n  routers:\n    rr:\n      rule: ${JSON.stringify(rule)}\n      service: s\n${extra}`;
const refused = (text: string, message: RegExp) => assert.throws(() => checkProxyConfig(text, 'shop-abc123'),
  (error: unknown) => error instanceof DomainError && error.code === 'BAD_REQUEST' && error.issues[0]?.path === 'proxyConfig'
    && message.test(error.message), `refused: ${text}`);

describe('a router rule the proxy cannot parse', () => {
  it('is refused, naming the rule and what is wrong', () => {
    refused(config('Host(a.test)'), /http\.routers\.rr\.rule: Host's values must be in backticks or double quotes/);
    refused(config('Host(`a.test`'), /http\.routers\.rr\.rule: the parenthesis of Host is not closed/);
    refused(config('Host(`a.test)'), /http\.routers\.rr\.rule: a value opened with ` is not closed/);
    refused(config('Hots(`a.test`)'), /http\.routers\.rr\.rule: Hots is not a matcher of HTTP routers; expected one of Host, HostRegexp/);
    refused(config('(Host(`a.test`) || Path(`/x`)'), /rule: a parenthesis is not closed/);
    refused(config('Host(`a.test`))'), /rule: a parenthesis is closed that was not opened/);
    refused(config('Host(`a.test`) Path(`/x`)'), /rule: two rules must be joined with && or \|\|/);
    refused(config("Host('a.test')"), /rule: values go in backticks or double quotes, not single quotes/);
    refused(config('Host(`a.test`) &&'), /rule: it ends where a matcher was expected/);
  });
  it('is refused with a v2 matcher or several values under the v3 syntax, saying how to fix it', () => {
    refused(config('Host(`a.test`, `b.test`)'), /rule: Host takes 1 value, not 2; join several with \|\|/);
    refused(config('Headers(`X-A`, `1`)'), /rule: Headers is not a matcher of HTTP routers \(Headers is of the v2 syntax: set the router's ruleSyntax to v2\)/);
    refused(config('Header(`X-A`)'), /rule: Header takes 2 values, not 1/);
    refused(config('HostSNI(`a.test`)'), /HostSNI is not a matcher of HTTP routers/);
    refused(config('Host(`a.test`)', '', 'tcp'), /tcp\.routers\.rr\.rule: Host is not a matcher of TCP routers/);
    refused(config('Host(`a.test`)', '      ruleSyntax: v4\n'), /ruleSyntax must be one of v2, v3/);
  });
  it('accepts what Traefik v3 parses, and the v2 syntax under ruleSyntax: v2', () => {
    for (const rule of [
      'Host(`a.test`)', 'Host("a.test") && PathPrefix(`/api`)', '(Host(`a.test`) || Host(`b.test`)) && !Method(`POST`)',
      'HostRegexp(`^.+\\.a\\.test$`)', 'Header(`X-A`, `1`) || HeaderRegexp(`X-B`, `^b`)', 'Query(`mobile`) || Query(`x`, `1`) || QueryRegexp(`y`, `^z`)',
      'ClientIP(`10.0.0.0/8`) && PathRegexp(`^/v[0-9]+`)', 'host(`a.test`) && PATH(`/`)', '  Host(`a.test`)\n  && Path(`/x`)  ',
    ]) checkProxyConfig(config(rule), 'shop-abc123');
    checkProxyConfig(config('Host(`a.test`, `b.test`) && Headers(`X-A`, `1`) && HostRegexp(`{sub:[a-z]+}.a.test`)', '      ruleSyntax: v2\n'), 'shop-abc123');
    checkProxyConfig(config('HostSNI(`*`) || ALPN(`h2`)', '', 'tcp'), 'shop-abc123');
  });
});
