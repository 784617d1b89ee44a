import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../errors.ts';
import { portEntries, publishedPorts } from './ports.ts';

describe('the host ports a compose file publishes', () => {
  it('reads either syntax, addresses, protocols and ranges, and lists each host port once', () => {
    const file = `services:
  web:
    image: web
    ports: ["80", "8080:80", "127.0.0.1:8443:443", "[::1]:9000:9000", "5353:53/udp", "8000-8001:3000-3001", "127.0.0.1::81", "0:82", "\${PORT}:80"]
  db:
    image: db
    ports: [{ target: 5432, published: 15432 }, { target: 53, published: "5353", protocol: udp }, { target: 6000 }, { target: 6001, published: 0 }, 8080:80]
`;
    assert.deepEqual(publishedPorts(file, 'PORT=7070'),
      ['8080/tcp', '8443/tcp', '9000/tcp', '5353/udp', '8000/tcp', '8001/tcp', '7070/tcp', '15432/tcp']);
    assert.deepEqual(publishedPorts('services:\n  a:\n    image: x\n', null), []);
    // What the compose tool takes and this does not read claims nothing, and refuses nothing.
    assert.deepEqual(publishedPorts('services:\n  a:\n    image: x\n    ports: ["8000-8010:80", "9000:9000/sctp", "7000:7000"]\n', null), ['9000/sctp', '7000/tcp']);
  });

  it('pairs a range of host ports with a range of container ports', () => {
    assert.deepEqual(portEntries('8000-8002:3000-3002/udp', 'p'), [
      { target: 3000, published: 8000, protocol: 'udp' }, { target: 3001, published: 8001, protocol: 'udp' }, { target: 3002, published: 8002, protocol: 'udp' },
    ]);
    assert.deepEqual(portEntries({ target: 80, published: 8080, mode: 'host' }, 'p'), [{ target: 80, published: 8080, protocol: 'tcp', mode: 'host' }]);
  });

  it('refuses, naming composeFile and the service, a port it cannot read', () => {
    for (const [entry, reason] of [
      ['abc:80', /is not \[HOST:\]CONTAINER/], ['8080:x', /does not name a container port/], ['70000:80', /is not \[HOST:\]CONTAINER/],
      ['8000-8001:80', /publishes 2 host port\(s\) for 1 container port\(s\)/], ['8080:80/quic', /protocol "quic"/],
      [{ target: 80, published: 'many' }, /published port "many" is not a port/],
    ] as const) {
      assert.throws(() => portEntries(entry, 'services.web.ports'), (error: unknown) =>
        error instanceof DomainError && error.issues[0]?.path === 'composeFile' && /services\.web\.ports/.test(error.message) && reason.test(error.message), String(entry));
    }
  });
});
