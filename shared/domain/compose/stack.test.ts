import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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

  it('refuses, naming the key, a deploy.mode it does not run as written and replicas that are not a whole number of 0 or more', () => {
    const file = (deploy: string) => `services:\n  web:\n    image: x\n    deploy: ${deploy}\n`;
    for (const [deploy, reason] of [
      ['{ mode: replicated-job }', /services\.web\.deploy\.mode replicated-job is not supported/],
      ['{ mode: global-job }', /services\.web\.deploy\.mode global-job is not supported/],
      ['{ mode: globl }', /services\.web\.deploy\.mode must be replicated or global, not "globl"/],
      ['{ replicas: "${NREP}" }', /services\.web\.deploy\.replicas must be a whole number of 0 or more, not ""/],
      ['{ replicas: abc }', /services\.web\.deploy\.replicas must be/],
      ['{ replicas: -1 }', /services\.web\.deploy\.replicas must be/],
      ['{ replicas: 1.5 }', /services\.web\.deploy\.replicas must be/],
      ['{ mode: global, replicas: 2 }', /services\.web\.deploy\.replicas cannot be used with deploy\.mode global/],
    ] as const) {
      assert.throws(() => stackSpec(file(deploy), { appName: 'p' }), (error: unknown) =>
        error instanceof DomainError && error.issues[0]?.path === 'composeFile' && reason.test(error.message), deploy);
    }
    const mode = (deploy: string, env?: string) => stackSpec(file(deploy), { appName: 'p', env }).services[0]!.Mode;
    assert.deepEqual(mode('{ replicas: "${NREP}" }', 'NREP=0'), { Replicated: { Replicas: 0 } });
    assert.deepEqual(mode('{ replicas: 2 }'), { Replicated: { Replicas: 2 } });
    assert.deepEqual(mode('{ mode: global }'), { Global: {} });
  });

  it('makes a named volume with the driver, driver options and labels the file declares, in either mount syntax', () => {
    const spec = stackSpec(`services:
  db:
    image: db:1
    volumes: ["data:/var/lib/db", { type: volume, source: cache, target: /cache, volume: { nocopy: true } }, "shared:/shared"]
volumes:
  data: { driver: local, driver_opts: { type: nfs, o: "addr=10.0.0.2,rw", device: ":/exports/db" }, labels: { backup: daily } }
  cache: {}
  shared: { external: true, name: team-shared }
`, { appName: 'shop' });
    const namespace = { 'com.docker.stack.namespace': 'shop' };
    assert.deepEqual(spec.services[0]!.TaskTemplate.ContainerSpec.Mounts, [
      { Type: 'volume', Source: 'shop_data', Target: '/var/lib/db', ReadOnly: false, VolumeOptions: {
        Labels: { backup: 'daily', ...namespace }, DriverConfig: { Name: 'local', Options: { type: 'nfs', o: 'addr=10.0.0.2,rw', device: ':/exports/db' } },
      } },
      { Type: 'volume', Source: 'shop_cache', Target: '/cache', ReadOnly: false, VolumeOptions: { Labels: namespace, NoCopy: true } },
      { Type: 'volume', Source: 'team-shared', Target: '/shared', ReadOnly: false, VolumeOptions: { Labels: namespace } },
    ]);
    assert.deepEqual(spec.volumes, ['shop_data', 'shop_cache']);
  });

  describe('what the file reads beside it', () => {
    const files: Record<string, string> = {
      'conf/app.env': 'GREETING=from the file\nMODE=file\n# a comment\n',
      'conf/db_password.txt': 's3cret\n',
      'nginx.conf': 'server {}\n',
    };
    const read = (path: string) => (path in files ? Buffer.from(files[path]!) : null);
    const options = { appName: 'shop', env: 'TOKEN=t0ken', read };
    const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
    const refused = (text: string, reason: RegExp) => assert.throws(() => stackSpec(text, options), (error: unknown) =>
      error instanceof DomainError && error.issues[0]?.path === 'composeFile' && reason.test(error.message), text);

    it('puts an env file\'s variables first and lets environment override them; a missing optional env file is skipped', () => {
      const spec = stackSpec(`services:
  web:
    image: web:1
    env_file: [conf/app.env, { path: absent.env, required: false }]
    environment: { MODE: stack }
`, options);
      assert.deepEqual(spec.services[0]!.TaskTemplate.ContainerSpec.Env, ['GREETING=from the file', 'MODE=stack']);
      refused('services:\n  web:\n    image: x\n    env_file: absent.env\n', /services\.web\.env_file: there is no file "absent\.env" beside the compose file/);
    });

    it('refuses a relative bind, which would point into the checkout every deploy replaces, saying what to use instead', () => {
      for (const entry of ['"./data:/data"', '"~/data:/data"', '{ type: bind, source: ../shared, target: /shared }']) {
        refused(`services:\n  web:\n    image: x\n    volumes: [${entry}]\n`, /is not an absolute path; .*use a named volume for data, a config for a file of the repository, or an absolute host path/);
      }
      const spec = stackSpec('services:\n  web:\n    image: x\n    volumes: ["/srv/data:/data", { type: bind, source: /srv/shared, target: /shared }]\n', options);
      assert.deepEqual(spec.services[0]!.TaskTemplate.ContainerSpec.Mounts.map((mount) => mount.Source), ['/srv/data', '/srv/shared']);
    });

    it('keeps a secret\'s name within the engine\'s 64 characters, its digest whole', () => {
      const long = stackSpec('services:\n  web:\n    image: x\nsecrets:\n  a_rather_long_secret_name_for_this_stack: { environment: TOKEN }\n',
        { ...options, appName: 'an-application-with-a-long-generated-name-abc123' });
      const [name] = long.secrets.map((secret) => secret.Name);
      assert.equal(name!.length, 64);
      assert.ok(name!.endsWith(`_${digest('t0ken')}`), name);
    });

    it('reads a secret\'s mode as the stack tool does: 0440 and 0o440 octal, "0440" octal, 288 decimal', () => {
      const modes = stackSpec(`services:
  web:
    image: x
    secrets: [{ source: s, target: a, mode: 0440 }, { source: s, target: b, mode: 0o400 }, { source: s, target: c, mode: "0440" }, { source: s, target: d, mode: 288 }]
secrets:
  s: { environment: TOKEN }
`, options).services[0]!.TaskTemplate.ContainerSpec.Secrets!.map((secret) => secret.File.Mode);
      assert.deepEqual(modes, [0o440, 0o400, 0o440, 0o440]);
    });

    it('creates secrets and configs named with their content\'s digest, and mounts them where the service says', () => {
      const spec = stackSpec(`services:
  web:
    image: web:1
    secrets: [db_password, { source: token, target: api-token, uid: "100", mode: 0400 }, outside]
    configs: [{ source: nginx, target: /etc/nginx/nginx.conf }, inline]
secrets:
  db_password: { file: conf/db_password.txt }
  token: { environment: TOKEN }
  outside: { external: true, name: shared_cert }
configs:
  nginx: { file: nginx.conf, labels: { role: proxy } }
  inline: { content: "hello \${TOKEN}" }
`, options);
      assert.deepEqual(spec.secrets.map((secret) => [secret.Name, Buffer.from(secret.Data, 'base64').toString()]), [
        [`shop_db_password_${digest('s3cret\n')}`, 's3cret\n'], [`shop_token_${digest('t0ken')}`, 't0ken'],
      ]);
      assert.deepEqual(spec.configs.map((config) => [config.Name, config.Labels]), [
        [`shop_nginx_${digest('server {}\n')}`, { role: 'proxy', 'com.docker.stack.namespace': 'shop' }],
        [`shop_inline_${digest('hello t0ken')}`, { 'com.docker.stack.namespace': 'shop' }],
      ]);
      const container = spec.services[0]!.TaskTemplate.ContainerSpec;
      assert.deepEqual(container.Secrets, [
        { File: { Name: 'db_password', UID: '0', GID: '0', Mode: 0o444 }, SecretName: `shop_db_password_${digest('s3cret\n')}` },
        { File: { Name: 'api-token', UID: '100', GID: '0', Mode: 0o400 }, SecretName: `shop_token_${digest('t0ken')}` },
        { File: { Name: 'outside', UID: '0', GID: '0', Mode: 0o444 }, SecretName: 'shared_cert' },
      ]);
      assert.deepEqual(container.Configs!.map((config) => [config.File.Name, config.ConfigName]), [
        ['/etc/nginx/nginx.conf', `shop_nginx_${digest('server {}\n')}`], ['/inline', `shop_inline_${digest('hello t0ken')}`],
      ]);
      refused('services:\n  web:\n    image: x\n    secrets: [nope]\n', /services\.web\.secrets: secret "nope" is not declared under secrets/);
      refused('services:\n  web:\n    image: x\nsecrets:\n  s: { file: missing.txt }\n', /secrets\.s: there is no file "missing\.txt" beside the compose file/);
      refused('services:\n  web:\n    image: x\nsecrets:\n  s: { environment: UNSET }\n', /secrets\.s: the variable "UNSET" is not in the service's env/);
      refused('services:\n  web:\n    image: x\nsecrets:\n  s: { content: x }\n', /secrets\.s: needs "file", "environment" or "external: true"/);
      refused('services:\n  web:\n    image: x\n    secrets: [{ source: s, mode: "rw" }]\nsecrets:\n  s: { environment: TOKEN }\n', /mode "rw" is not a file mode/);
    });

    it('carries the container options a stack uses, and lists what it does not use', () => {
      const spec = stackSpec(`services:
  web:
    image: web:1
    build: .
    restart: always
    depends_on: [db]
    x-notes: mine
    extra_hosts: ["db.local:10.0.0.5"]
    dns: 10.0.0.1
    init: true
    read_only: true
    stop_signal: SIGINT
    cap_add: [NET_ADMIN]
    sysctls: { net.core.somaxconn: 1024 }
    ulimits: { nofile: { soft: 1024, hard: 2048 }, nproc: 512 }
    logging: { driver: json-file, options: { max-size: 10m } }
    deploy:
      placement: { preferences: [{ spread: node.labels.zone }], max_replicas_per_node: 2 }
      rollback_config: { parallelism: 2, monitor: 10s }
      resources: { limits: { memory: 64M } }
      unheard_of: 1
x-shared: {}
include: [other.yml]
`, options);
      const [web] = spec.services;
      const container = web!.TaskTemplate.ContainerSpec;
      assert.deepEqual(container.Hosts, ['10.0.0.5 db.local']);
      assert.deepEqual(container.DNSConfig, { Nameservers: ['10.0.0.1'] });
      assert.equal(container.Init, true);
      assert.equal(container.ReadOnly, true);
      assert.equal(container.StopSignal, 'SIGINT');
      assert.deepEqual(container.CapabilityAdd, ['NET_ADMIN']);
      assert.deepEqual(container.Sysctls, { 'net.core.somaxconn': '1024' });
      assert.deepEqual(container.Ulimits, [{ Name: 'nofile', Soft: 1024, Hard: 2048 }, { Name: 'nproc', Soft: 512, Hard: 512 }]);
      assert.deepEqual(web!.TaskTemplate.LogDriver, { Name: 'json-file', Options: { 'max-size': '10m' } });
      assert.deepEqual(web!.TaskTemplate.Placement, { Preferences: [{ Spread: { SpreadDescriptor: 'node.labels.zone' } }], MaxReplicas: 2 });
      assert.deepEqual(web!.RollbackConfig, { Parallelism: 2, Monitor: 10e9 });
      assert.deepEqual(spec.ignored, ['include', 'services.web.build', 'services.web.restart', 'services.web.depends_on', 'services.web.deploy.unheard_of']);
    });

    it('lists the name a file asks for its own network among what it ignores: the network is named in the stack\'s namespace', () => {
      const spec = stackSpec('services:\n  web:\n    image: web:1\n    networks: [n, out]\nnetworks:\n  n:\n    name: custom-net\n  out:\n    external: true\n    name: shared-net\n', { appName: 'shop' });
      assert.deepEqual(spec.ignored, ['networks.n.name']);
      assert.deepEqual(spec.networks.map((network) => network.Name).sort(), ['shop_n']);
    });
  });
});
