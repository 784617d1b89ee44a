// The forge port over the reference forge's REST API (app JWT → installation access token →
// `installation/repositories`, `repos/{owner}/{repo}`, `repos/{owner}/{repo}/branches`).
import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { ForgeError, type Forge, type ForgeApp, type ForgeRepository } from '../../ports/forge.ts';

const TIMEOUT_MS = 15_000;
const PAGE = 100;

interface RepositoryBody { name: string; owner: { login: string }; clone_url: string }

const repositoryOf = (body: RepositoryBody): ForgeRepository => ({ name: body.name, owner: body.owner.login, url: body.clone_url });

/** The app's JWT: issued a minute in the past (clock skew), valid for nine minutes (the forge allows ten). */
async function appJwt(app: ForgeApp): Promise<string> {
  let key;
  try {
    key = createPrivateKey(app.privateKey);
  } catch {
    throw new ForgeError('the forge app\'s private key is not a PEM private key');
  }
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuer(app.appId).setIssuedAt(now - 60).setExpirationTime(now + 540).sign(key);
}

/**
 * One segment of an API path. Encoding keeps `/`, `?` and `#` inside it, but a URL resolves a `.`
 * or `..` segment, so `repos/../x` would ask another endpoint: no owner, repository or installation
 * is named so, and the forge is not asked.
 */
function segment(value: string, what: string): string {
  if (value === '.' || value === '..') throw new ForgeError(`no ${what} is named ${value}`, 404);
  return encodeURIComponent(value);
}

async function call<T>(app: ForgeApp, path: string, authorization: string, method = 'GET'): Promise<T> {
  const url = `${app.apiUrl.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method, signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { authorization, accept: 'application/vnd.github+json', 'user-agent': 'berth' },
    });
  } catch (error) {
    throw new ForgeError(`the forge API at ${app.apiUrl} did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    const reason = (() => { try { return String((JSON.parse(text) as { message?: unknown }).message ?? text); } catch { return text; } })();
    throw new ForgeError(`the forge answered ${response.status} to ${method} ${path}: ${reason.slice(0, 200)}`, response.status);
  }
  return (await response.json()) as T;
}

export const restForge: Forge = {
  async installationToken(app) {
    const body = await call<{ token: string }>(app, `/app/installations/${segment(app.installationId, 'installation')}/access_tokens`, `Bearer ${await appJwt(app)}`, 'POST');
    return body.token;
  },
  async repositories(app, token) {
    const found: ForgeRepository[] = [];
    for (let page = 1; ; page++) {
      const body = await call<{ repositories: RepositoryBody[] }>(app, `/installation/repositories?per_page=${PAGE}&page=${page}`, `token ${token}`);
      found.push(...body.repositories.map(repositoryOf));
      if (body.repositories.length < PAGE) return found;
    }
  },
  async repository(app, token, owner, name) {
    return repositoryOf(await call<RepositoryBody>(app, `/repos/${segment(owner, 'owner')}/${segment(name, 'repository')}`, `token ${token}`));
  },
  async branches(app, token, owner, name) {
    const found: string[] = [];
    for (let page = 1; ; page++) {
      const body = await call<Array<{ name: string }>>(app, `/repos/${segment(owner, 'owner')}/${segment(name, 'repository')}/branches?per_page=${PAGE}&page=${page}`, `token ${token}`);
      found.push(...body.map((branch) => branch.name));
      if (body.length < PAGE) return found;
    }
  },
};
