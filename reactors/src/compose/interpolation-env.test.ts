import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { publishedPorts } from '@berth/shared/domain/compose/ports';
import { envMap } from '@berth/shared/domain/compose/values';
import { interpolationEnv } from './container-compose.ts';

describe('the variables a compose project\'s file is filled from, for the ports it claims', () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'berth-dotenv-')));
  after(() => rmSync(base, { recursive: true, force: true }));
  const text = 'services:\n  web:\n    image: x\n    ports: ["${PORT}:80", "${ADMIN_PORT}:81"]\n';

  it('reads the .env beside the file, the service\'s env winning, as the compose tool does', () => {
    const repo = join(base, 'repo');
    mkdirSync(join(repo, 'deploy'), { recursive: true });
    writeFileSync(join(repo, 'deploy', 'compose.yml'), text);
    writeFileSync(join(repo, 'deploy', '.env'), 'PORT=7000\nADMIN_PORT=7001\n');
    const env = interpolationEnv({ dir: repo, file: join(repo, 'deploy', 'compose.yml'), text, revision: null }, { env: 'ADMIN_PORT=7002' });
    assert.deepEqual(envMap(env), { PORT: '7000', ADMIN_PORT: '7002' });
    assert.deepEqual(publishedPorts(text, env), ['7000/tcp', '7002/tcp']);
  });

  it('counts a .env that leads out of the repository, or none, for nothing', () => {
    const repo = join(base, 'linked');
    mkdirSync(repo);
    writeFileSync(join(base, 'outside.env'), 'PORT=6000\n');
    symlinkSync(join(base, 'outside.env'), join(repo, '.env'));
    const fetched = { dir: repo, file: join(repo, 'compose.yml'), text, revision: null };
    writeFileSync(fetched.file, text);
    assert.deepEqual(envMap(interpolationEnv(fetched, { env: null })), {});
    rmSync(join(repo, '.env'));
    assert.deepEqual(envMap(interpolationEnv(fetched, { env: 'PORT=1' })), { PORT: '1' });
  });

  it('finds the .env of a repository whose folder is reached through a symbolic link (a data folder under /srv, say)', () => {
    const real = join(base, 'real-data');
    mkdirSync(join(real, 'app'), { recursive: true });
    writeFileSync(join(real, 'app', 'compose.yml'), text);
    writeFileSync(join(real, 'app', '.env'), 'PORT=7100\n');
    symlinkSync(real, join(base, 'data-link'));
    // The compose file's path is the resolved one, its repository's is not, as the fetch gives them.
    const fetched = { dir: join(base, 'data-link', 'app'), file: join(real, 'app', 'compose.yml'), text, revision: null };
    assert.deepEqual(envMap(interpolationEnv(fetched, { env: null })), { PORT: '7100' });
  });
});
