// STAND-IN: the forge's REST API cannot run here (it is a hosted service), so this small server
// answers the few endpoints Berth uses, as the reference forge does: the app's RS256 JWT checked
// against the app's public key, installation tokens issued, repositories and branches listed with
// such a token. The clone is real: the repositories are served over git's smart HTTP (over TLS),
// with the installation token as the basic-auth password, so only a token it issued clones.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify, createLocalJWKSet, exportJWK } from 'jose';
import { selfSignedCertificate } from './certificate.ts';
import { gitHttpServer, type GitHttpServer } from './git-http.ts';

export interface ForgeRepo { readonly owner: string; readonly name: string; readonly dir: string; readonly branches: readonly string[] }

export interface ForgeApi {
  readonly apiUrl: string;
  readonly appId: string;
  readonly installationId: string;
  /** The app's private key (PKCS#1 PEM, as the reference forge hands it out). */
  readonly privateKey: string;
  /** Installation tokens issued so far. */
  readonly issued: string[];
  /** The paths asked for so far, as the server read them. */
  readonly asked: string[];
  readonly git: GitHttpServer;
  stop(): Promise<void>;
}

export async function forgeApi(repos: readonly ForgeRepo[]): Promise<ForgeApi> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), alg: 'RS256' }] });
  const appId = String(100_000 + Math.floor(Math.random() * 900_000));
  const installationId = String(1_000_000 + Math.floor(Math.random() * 9_000_000));
  const issued: string[] = [];
  const asked: string[] = [];
  // Git trusts the TLS certificate through GIT_SSL_CAINFO (a host's CA store stands behind it in production).
  const certDir = mkdtempSync(join(tmpdir(), 'berth-forge-tls-'));
  const certificate = selfSignedCertificate('localhost', { altNames: ['localhost'] });
  writeFileSync(join(certDir, 'ca.pem'), certificate.certificateData);
  process.env.GIT_SSL_CAINFO = join(certDir, 'ca.pem');
  const git = await gitHttpServer(Object.fromEntries(repos.map((r) => [`${r.owner}/${r.name}`, r.dir])),
    (user, password) => user === 'x-access-token' && issued.includes(password),
    { cert: certificate.certificateData, key: certificate.privateKey });
  const body = (repo: ForgeRepo) => ({ name: repo.name, owner: { login: repo.owner }, clone_url: `${git.baseUrl}/${repo.owner}/${repo.name}.git` });
  const send = (response: ServerResponse, status: number, value: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://forge');
    asked.push(url.pathname);
    const auth = request.headers.authorization ?? '';
    if (request.method === 'POST' && url.pathname === `/app/installations/${installationId}/access_tokens`) {
      try {
        await jwtVerify(auth.replace(/^Bearer /, ''), keys, { issuer: appId, algorithms: ['RS256'] });
      } catch (error) {
        return send(response, 401, { message: `A JSON web token could not be decoded (${String(error)})` });
      }
      const token = `ghs_${randomBytes(18).toString('base64url')}`;
      issued.push(token);
      return send(response, 201, { token, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    }
    if (!issued.includes(auth.replace(/^token /, ''))) return send(response, 401, { message: 'Bad credentials' });
    if (url.pathname === '/installation/repositories') return send(response, 200, { total_count: repos.length, repositories: repos.map(body) });
    const match = /^\/repos\/([^/]+)\/([^/]+)(\/branches)?$/.exec(url.pathname);
    const repo = match && repos.find((r) => r.owner === match[1] && r.name === match[2]);
    if (!repo) return send(response, 404, { message: 'Not Found' });
    return send(response, 200, match[3] ? repo.branches.map((name) => ({ name })) : body(repo));
  };
  const server = createServer((request, response) => { void answer(request, response); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    appId, installationId, issued, asked, git,
    privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await git.stop();
      rmSync(certDir, { recursive: true, force: true });
    },
  };
}
