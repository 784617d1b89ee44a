// The git transports, for real: an application deployed from a repository over https (git's smart
// HTTP over TLS behind basic auth, the credentials in the URL, never in the log) and over ssh (a
// throwaway sshd on a random port that accepts only the key the application generated).
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sourcesDirOf } from '@berth/shared/domain/compose/project-name';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { ended } from '../support/deployments.ts';
import { selfSignedCertificate } from '../support/certificate.ts';
import { eventually, httpBody, removeDeployed } from '../support/engine.ts';
import { GOOD_CONTAINERFILE, gitRepo } from '../support/git-repo.ts';
import { gitHttpServer } from '../support/git-http.ts';
import { freePort } from '../support/http.ts';

describe('git transports', () => {
  let berth: TestBerth;
  let projectId: string;
  const repo = gitRepo();
  const services: string[] = [];
  let revision: string;
  before(async () => {
    revision = repo.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'over the wire\n' });
    berth = await startBerthWithReactors({ config: { taskStartTimeoutMs: 20_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'transports' }));
  });
  after(async () => {
    await removeDeployed(services);
    await berth.stop();
    repo.remove();
  });

  /** Deploys an application from `url`; answers its deployment and log, and the port it serves on. */
  const deployFrom = async (name: string, url: string, prepare?: (applicationId: string) => Promise<void>) => {
    const app = await berth.ok('application.create', { name, projectId });
    services.push(app.appName);
    const port = await freePort();
    await berth.ok('port.create', { applicationId: app.applicationId, publishedPort: port, targetPort: 8080 });
    await prepare?.(app.applicationId);
    await berth.ok('application.saveGitProdiver', { applicationId: app.applicationId, customGitUrl: url, customGitBranch: 'main' });
    const { deploymentId } = await berth.ok('application.deploy', { applicationId: app.applicationId });
    const deployment = await ended(berth, deploymentId);
    const { log } = await berth.ok('deployment.logs', { deploymentId });
    return { deployment, log: log as string, port, appName: app.appName as string };
  };

  it('clones over https with basic auth; a wrong password fails the deployment with git\'s reason', async () => {
    const certificate = selfSignedCertificate('localhost', { altNames: ['localhost'] });
    const caDir = mkdtempSync(join(tmpdir(), 'berth-ca-'));
    writeFileSync(join(caDir, 'ca.pem'), certificate.certificateData);
    process.env.GIT_SSL_CAINFO = join(caDir, 'ca.pem');
    const server = await gitHttpServer({ 'acme/shop': repo.dir }, (user, password) => user === 'deploy' && password === 's3cret-pass',
      { cert: certificate.certificateData, key: certificate.privateKey });
    try {
      const url = server.baseUrl.replace('https://', 'https://deploy:s3cret-pass@');
      const good = await deployFrom('https', `${url}/acme/shop.git`);
      assert.equal(good.deployment.status, 'done', good.log);
      assert.equal(good.deployment.revision, revision);
      await eventually('the https source served', async () => (await httpBody(good.port)) === 'over the wire\n');
      assert.ok(!good.log.includes('s3cret-pass'), 'the password is in the log');
      const bad = await deployFrom('https-refused', `${server.baseUrl.replace('https://', 'https://deploy:wrong@')}/acme/shop.git`);
      assert.equal(bad.deployment.status, 'error');
      assert.match(bad.deployment.reason, /git clone failed.*(401|Authentication failed)/);
    } finally {
      await server.stop();
      rmSync(caDir, { recursive: true, force: true });
    }
  });

  it('clones over ssh with the key the application generated, which the server accepts alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-sshd-'));
    const port = await freePort();
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
    mkdirSync('/run/sshd', { recursive: true });
    let sshd: ChildProcess | null = null;
    try {
      const result = await deployFrom('ssh', `ssh://${userInfo().username}@127.0.0.1:${port}${repo.dir}`, async (applicationId) => {
        const { customGitSSHKey } = await berth.ok('application.generateSSHKey', { applicationId });
        writeFileSync(join(dir, 'authorized_keys'), `${customGitSSHKey}\n`, { mode: 0o600 });
        sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-p', String(port), '-h', join(dir, 'host_key'), '-o', 'ListenAddress=127.0.0.1',
          '-o', `AuthorizedKeysFile=${join(dir, 'authorized_keys')}`, '-o', 'StrictModes=no', '-o', 'PidFile=none', '-o', 'UsePAM=no',
          '-o', 'PasswordAuthentication=no', '-o', 'PermitRootLogin=prohibit-password'], { stdio: 'ignore' });
        await eventually('sshd to listen', async () => {
          try { execFileSync('ssh-keyscan', ['-p', String(port), '127.0.0.1'], { stdio: 'ignore' }); return true; } catch { return false; }
        }, 10_000);
      });
      assert.equal(result.deployment.status, 'done', result.log);
      assert.equal(result.deployment.revision, revision);
      assert.ok(!result.log.includes('PRIVATE KEY'));
      await eventually('the ssh source served', async () => (await httpBody(result.port)) === 'over the wire\n');
      // Another application's key is refused by the same server.
      const other = await deployFrom('ssh-refused', `ssh://${userInfo().username}@127.0.0.1:${port}${repo.dir}`,
        async (applicationId) => { await berth.ok('application.generateSSHKey', { applicationId }); });
      assert.equal(other.deployment.status, 'error');
      assert.match(other.deployment.reason, /git clone failed/);
      assert.match(other.log, /Permission denied \(publickey\)/);
      // The key was on disk for the clone only, failed or not.
      assert.equal(existsSync(join(sourcesDirOf(berth.dataDir), other.appName, 'ssh-key')), false);
    } finally {
      (sshd as ChildProcess | null)?.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
