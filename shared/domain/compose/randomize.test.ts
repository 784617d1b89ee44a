import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { randomizeComposeFile } from './randomize.ts';

const randomized = (text: string) => parse(randomizeComposeFile(text, 'x1'));

describe('randomizing a compose file', () => {
  it('suffixes every service, named volume and named network', () => {
    const file = randomized(`
services: { web: { image: nginx }, db: { image: pg } }
volumes: { data: {} }
networks: { back: {} }
`);
    assert.deepEqual(Object.keys(file.services), ['web-x1', 'db-x1']);
    assert.deepEqual(Object.keys(file.volumes), ['data-x1']);
    assert.deepEqual(Object.keys(file.networks), ['back-x1']);
  });

  it('renames depends_on in its list and its map form', () => {
    const file = randomized(`
services:
  web: { depends_on: [db, cache] }
  api: { depends_on: { db: { condition: service_healthy } } }
  db: {}
  cache: {}
`);
    assert.deepEqual(file.services['web-x1'].depends_on, ['db-x1', 'cache-x1']);
    assert.deepEqual(file.services['api-x1'].depends_on, { 'db-x1': { condition: 'service_healthy' } });
  });

  it('renames named volumes in short and long volume entries, and leaves bind mounts alone', () => {
    const file = randomized(`
services:
  web:
    volumes:
      - data:/var/lib/data:ro
      - ./conf:/etc/conf
      - /srv/logs:/logs
      - { type: volume, source: data, target: /data }
      - { type: bind, source: data, target: /bound }
volumes: { data: }
`);
    assert.deepEqual(file.services['web-x1'].volumes, [
      'data-x1:/var/lib/data:ro', './conf:/etc/conf', '/srv/logs:/logs',
      { type: 'volume', source: 'data-x1', target: '/data' }, { type: 'bind', source: 'data', target: '/bound' },
    ]);
  });

  it('renames networks in the list and the map form of a service', () => {
    const file = randomized(`
services:
  web: { networks: [front, back] }
  api: { networks: { back: { aliases: [api] } } }
networks: { front: {}, back: {} }
`);
    assert.deepEqual(file.services['web-x1'].networks, ['front-x1', 'back-x1']);
    assert.deepEqual(file.services['api-x1'].networks, { 'back-x1': { aliases: ['api'] } });
  });

  it('renames links, extends, volumes_from and network_mode references to services', () => {
    const file = randomized(`
services:
  base: { image: nginx }
  web:
    links: [db, "db:database"]
    extends: { service: base }
    volumes_from: ["base:ro", "service:db", "container:other"]
    network_mode: "service:db"
  remote: { extends: { file: other.yml, service: base } }
  db: {}
`);
    const web = file.services['web-x1'];
    assert.deepEqual(web.links, ['db-x1', 'db-x1:database']);
    assert.deepEqual(web.extends, { service: 'base-x1' });
    assert.deepEqual(web.volumes_from, ['base-x1:ro', 'service:db-x1', 'container:other']);
    assert.equal(web.network_mode, 'service:db-x1');
    assert.deepEqual(file.services['remote-x1'].extends, { file: 'other.yml', service: 'base' });
  });

  it('leaves external volumes and networks, which exist outside the file, as they are', () => {
    const file = randomized(`
services: { web: { volumes: ["shared:/s"], networks: [edge] } }
volumes: { shared: { external: true } }
networks: { edge: { external: true } }
`);
    assert.deepEqual(file.services['web-x1'], { volumes: ['shared:/s'], networks: ['edge'] });
    assert.deepEqual(Object.keys(file.volumes), ['shared']);
    assert.deepEqual(Object.keys(file.networks), ['edge']);
  });

  it('follows merge keys once, even when several services share the anchored defaults', () => {
    const file = parse(randomizeComposeFile(`
x-defaults: &defaults
  depends_on: [db]
services:
  web: { <<: *defaults }
  api: { <<: *defaults }
  db: {}
`, 'x1'), { merge: true });
    assert.deepEqual(file.services['web-x1'].depends_on, ['db-x1']);
    assert.deepEqual(file.services['api-x1'].depends_on, ['db-x1']);
  });

  it('keeps comments and the author layout', () => {
    const text = 'services:\n  # the front\n  web:\n    image: nginx # pinned later\n';
    assert.equal(randomizeComposeFile(text, 'x1'), 'services:\n  # the front\n  web-x1:\n    image: nginx # pinned later\n');
  });

  it('suffixes a fixed container_name, which would clash just the same', () => {
    assert.equal(randomized('services: { web: { container_name: shop-web } }\n').services['web-x1'].container_name, 'shop-web-x1');
  });

  it('leaves an empty file empty', () => {
    assert.equal(randomizeComposeFile('', 'x1'), '');
  });
});
