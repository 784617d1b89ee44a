import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../errors.ts';
import { stackSpec } from './stack.ts';

const FILE = `
services:
  web:
    image: web:1
    command: sh -c "echo 'hello world' && httpd -f"
    environment:
      DATABASE_URL: postgres://app:\${DB_PASSWORD}@db/app
      MODE: \${MODE:-production}
    ports: ["8080:80", { target: 443, published: 8443, mode: host }]
    networks: [front, back]
    deploy:
      replicas: 3
      resources: { limits: { cpus: "0.5", memory: 256M } }
      restart_policy: { condition: on-failure, delay: 5s, max_attempts: 3 }
      update_config: { parallelism: 1, order: start-first }
      labels: { tier: front }
  db:
    image: db:1
    volumes: [data:/var/lib/db, /srv/conf:/etc/db:ro]
    networks: [back]
    healthcheck: { test: "pg_isready", interval: 1m30s, retries: 3 }
    deploy: { mode: global, placement: { constraints: [node.role == manager] } }
networks:
  front: {}
  back: { driver: overlay, attachable: true }
  shared: { external: true, name: proxy-net }
volumes:
  data: {}
`;

describe('stack specs from a compose file', () => {
  const spec = stackSpec(FILE, { appName: 'shop', env: 'DB_PASSWORD=s3cret' });
  const [web, db] = spec.services;

  it('names every service, network and volume in the appName namespace, with the namespace label', () => {
    assert.deepEqual(spec.services.map((s) => s.Name), ['shop_web', 'shop_db']);
    assert.deepEqual(spec.networks.map((n) => n.Name), ['shop_front', 'shop_back']);
    assert.deepEqual(spec.volumes, ['shop_data']);
    assert.equal(web!.Labels['com.docker.stack.namespace'], 'shop');
    assert.equal(web!.Labels.tier, 'front');
    assert.deepEqual(web!.TaskTemplate.Networks, [{ Target: 'shop_front', Aliases: ['web'] }, { Target: 'shop_back', Aliases: ['web'] }]);
  });

  it('fills in variables from the env, with defaults, and splits a command as a shell does', () => {
    assert.deepEqual(web!.TaskTemplate.ContainerSpec.Env, ['DATABASE_URL=postgres://app:s3cret@db/app', 'MODE=production']);
    assert.deepEqual(web!.TaskTemplate.ContainerSpec.Args, ['sh', '-c', "echo 'hello world' && httpd -f"]);
  });

  it('carries ports, replicas, resources, restart and update settings', () => {
    assert.deepEqual(web!.EndpointSpec!.Ports, [
      { Protocol: 'tcp', TargetPort: 80, PublishedPort: 8080, PublishMode: 'ingress' },
      { Protocol: 'tcp', TargetPort: 443, PublishedPort: 8443, PublishMode: 'host' },
    ]);
    assert.deepEqual(web!.Mode, { Replicated: { Replicas: 3 } });
    assert.deepEqual(web!.TaskTemplate.Resources!.Limits, { NanoCPUs: 5e8, MemoryBytes: 256 * 1024 ** 2 });
    assert.deepEqual(web!.TaskTemplate.RestartPolicy, { Condition: 'on-failure', Delay: 5e9, MaxAttempts: 3 });
    assert.deepEqual(web!.UpdateConfig, { Parallelism: 1, Order: 'start-first' });
  });

  it('mounts named volumes under their stack name and bind mounts as written', () => {
    const mounts = db!.TaskTemplate.ContainerSpec.Mounts;
    assert.equal(mounts[0]!.Source, 'shop_data');
    assert.equal(mounts[0]!.Type, 'volume');
    assert.deepEqual({ ...mounts[1] }, { Type: 'bind', Source: '/srv/conf', Target: '/etc/db', ReadOnly: true });
    assert.deepEqual(db!.Mode, { Global: {} });
    assert.deepEqual(db!.TaskTemplate.Placement, { Constraints: ['node.role == manager'] });
    assert.deepEqual(db!.TaskTemplate.ContainerSpec.Healthcheck, { Test: ['CMD-SHELL', 'pg_isready'], Interval: 90e9, Retries: 3 });
  });

  it('puts a service without networks on the stack default network', () => {
    const plain = stackSpec('services:\n  one:\n    image: x\n', { appName: 'p' });
    assert.deepEqual(plain.networks.map((n) => n.Name), ['p_default']);
    assert.deepEqual(plain.services[0]!.TaskTemplate.Networks, [{ Target: 'p_default', Aliases: ['one'] }]);
  });

  it('refuses, naming composeFile, a file it cannot deploy', () => {
    for (const [text, reason] of [
      ['services: [', /not valid YAML/], ['', /empty/], ['services: {}\n', /no services/],
      ['services:\n  a:\n    build: .\n', /needs an image/],
      ['services:\n  a:\n    image: x\n    volumes: [missing:/x]\n', /not declared/],
      ['services:\n  a:\n    image: x\n    networks: [nope]\n', /not declared/],
    ] as const) {
      assert.throws(() => stackSpec(text, { appName: 'p' }), (error: unknown) =>
        error instanceof DomainError && error.issues[0]?.path === 'composeFile' && reason.test(error.message), text);
    }
  });
});
