// The tools a deployment runs see the environment they need, never Berth's own secrets: the
// compose tool interpolates a user's file from it.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { runTool, toolEnvironment } from './process.ts';

const NO_SIGNAL = new AbortController().signal;

describe('the environment of the tools a deployment runs', () => {
  it('holds the run\'s own variables and what finds programs, but not Berth\'s settings', async () => {
    process.env.BERTH_INSTANCE_KEY = 'instance-key-that-must-not-leak';
    process.env.AWS_SECRET_ACCESS_KEY = 'another-secret';
    try {
      const output = await runTool('sh', ['-c', 'echo "[$BERTH_INSTANCE_KEY][$AWS_SECRET_ACCESS_KEY][$GIVEN][${PATH:+path}]"'], {
        env: { GIVEN: 'given' }, signal: NO_SIGNAL, log: () => {}, quiet: true,
      });
      assert.equal(output.trim(), '[][][given][path]');
    } finally {
      delete process.env.BERTH_INSTANCE_KEY;
      delete process.env.AWS_SECRET_ACCESS_KEY;
    }
  });

  it('lets what the run gives win over what it inherits', () => {
    assert.deepEqual(toolEnvironment({ HOME: '/work', X: '1' }, { HOME: '/root', PATH: '/bin', BERTH_DATA_DIR: '/data' }),
      { HOME: '/work', PATH: '/bin', X: '1' });
  });
});

/** The pids of the processes whose command line is `line`. */
const pidsOf = (line: string) => execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n')
  .filter((row) => row.trim().endsWith(line)).map((row) => Number(row.trim().split(/\s+/)[0]));

const until = async (what: string, done: () => boolean, ms = 10_000) => {
  for (const deadline = Date.now() + ms; !done();) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('a tool a deployment runs', () => {
  it('dies with Berth, even killed with SIGKILL: a clone does not go on writing into the folder the restarted Berth uses', async () => {
    const seconds = `${300 + Math.floor(Math.random() * 1000)}`;
    const script = `import { runTool } from ${JSON.stringify(fileURLToPath(new URL('./process.ts', import.meta.url)))};
      await runTool('sleep', [${JSON.stringify(seconds)}], { signal: new AbortController().signal, log: () => {} });`;
    const berth = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'ignore' });
    await until('the tool to start', () => pidsOf(`sleep ${seconds}`).length === 1, 20_000);
    berth.kill('SIGKILL');
    await until('the tool to die with it', () => pidsOf(`sleep ${seconds}`).length === 0);
  });

  it('that fails says why in the lines its output said it, not its closing summary, named as the run names it', async () => {
    const said = [
      'Creating shop_web_1 ...',
      'ERROR: for web  Cannot start service web: driver failed programming external connectivity on endpoint shop_web_1: Error starting userland proxy: listen tcp4 0.0.0.0:18750: bind: address already in use',
      'ERROR: Encountered errors while bringing up the project.',
    ];
    const script = said.map((line) => `echo '${line}' >&2`).join('; ');
    await assert.rejects(runTool('sh', ['-c', `${script}; exit 1`], { signal: NO_SIGNAL, log: () => {}, what: 'docker-compose up' }), {
      message: `docker-compose up failed (exit 1): ${said[1]} | ${said[2]} (host port 18750 is taken on the node by a process the swarm does not run: free it, or publish another port)`,
    });
    await assert.rejects(runTool('sh', ['-c', 'echo done here; exit 2'], { signal: NO_SIGNAL, log: () => {} }), { message: 'sh -c failed (exit 2): done here' });
  });

  it('that is not installed fails the deployment saying so, named or given by its path', async () => {
    await assert.rejects(runTool('berth-no-such-tool', [], { signal: NO_SIGNAL, log: () => {} }), { message: 'berth-no-such-tool is not installed on this host' });
    await assert.rejects(runTool('/nowhere/berth-tool', [], { signal: NO_SIGNAL, log: () => {} }), { message: '/nowhere/berth-tool is not installed on this host' });
  });

  it('is found on the PATH the run gives it, and by its path', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'berth-bin-'));
    try {
      writeFileSync(join(bin, 'berth-own-tool'), '#!/bin/sh\necho own tool\n', { mode: 0o755 });
      const quiet = { signal: NO_SIGNAL, log: () => {}, quiet: true };
      assert.equal((await runTool('berth-own-tool', [], { ...quiet, env: { PATH: `${bin}:${process.env.PATH}` } })).trim(), 'own tool');
      assert.equal((await runTool(join(bin, 'berth-own-tool'), [], quiet)).trim(), 'own tool');
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
