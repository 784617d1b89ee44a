// A pack build type runs its CLI (here a stand-in that says what it sees and tags the test image) on
// the engine Berth uses, and a cancelled build stops the CLI with everything it started.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runDeploymentWith } from '@berth/reactors/deployer/run';
import { eventually, uniqueName } from '../support/engine.ts';
import { deployer, testApplication } from '../support/deploy-work.ts';
import { gitRepo } from '../support/git-repo.ts';

/** Whether the process runs (a zombie waiting for its reaper has ended). */
function runs(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('pack build types', () => {
  const bin = mkdtempSync(join(tmpdir(), 'berth-test-fr-bin-'));
  const engineSocket = join(bin, 'engine.sock');
  const childPid = join(bin, 'child.pid');
  const repo = gitRepo();
  const d = deployer();
  const run = runDeploymentWith({ ...d.deps, settings: { ...d.deps.settings, dockerHost: `unix://${engineSocket}` } });
  const apps: ReturnType<typeof testApplication>[] = [];
  const path = process.env.PATH;
  before(() => {
    repo.commit({ 'index.html': 'packed\n' });
    // The engine by another path, as BERTH_ENGINE_SOCKET may name it.
    symlinkSync('/var/run/docker.sock', engineSocket);
    writeFileSync(join(bin, 'pack'), [
      '#!/bin/bash',
      'echo "pack sees DOCKER_HOST=[${DOCKER_HOST:-unset}]"',
      `if [ -f ${join(bin, 'hang')} ]; then sleep 600 & echo $! > ${childPid}; wait; fi`,
      'docker tag berth-test/httpd:current "$2"',
    ].join('\n'));
    chmodSync(join(bin, 'pack'), 0o755);
    process.env.PATH = `${bin}:${path}`;
  });
  after(async () => {
    process.env.PATH = path;
    for (const app of apps) await d.actions.remove(app);
    rmSync(bin, { recursive: true, force: true });
    repo.remove();
  });

  const packApp = () => {
    const app = testApplication({ appName: uniqueName('berth-test-fr'), sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', buildType: 'beta_buildpacks' });
    apps.push(app);
    return app;
  };
  const deploy = async (signal = new AbortController().signal) => {
    const log: string[] = [];
    const deploymentId = uniqueName('fr');
    const application = packApp();
    d.deployments.set(deploymentId, { applicationId: application.applicationId, composeId: null });
    const error = await run({ deploymentId, kind: 'deploy', application, image: null, log: (line) => log.push(line), signal }).then(() => null, (e: Error) => e);
    return { error, log };
  };

  it('runs the pack CLI against the engine Berth uses (BERTH_ENGINE_SOCKET), not the host\'s default', async () => {
    const { error, log } = await deploy();
    assert.equal(error, null, log.join('\n'));
    assert.ok(log.includes(`pack sees DOCKER_HOST=[unix://${engineSocket}]`), log.join('\n'));
  });

  it('a cancelled pack build stops the CLI and the processes it started', async () => {
    writeFileSync(join(bin, 'hang'), '');
    const cancel = new AbortController();
    const deployed = deploy(cancel.signal);
    await eventually('the CLI to start its child', async () => existsSync(childPid) && readFileSync(childPid, 'utf8').trim() !== '');
    const pid = Number(readFileSync(childPid, 'utf8'));
    assert.ok(runs(pid));
    cancel.abort(new Error('cancelled'));
    const { error } = await deployed;
    assert.ok(error);
    await eventually('the CLI\'s child to end', async () => !runs(pid), 10_000);
  });
});
